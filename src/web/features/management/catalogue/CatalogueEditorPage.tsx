/**
 * The catalogue page (manageCatalogue): every desk and form type live now, with its JSON and where it comes from;
 * an editor (LTR inside the RTL page) checked by the server against the meta-schemas and the rest of the catalogue
 * as one types, each problem at its JSON pointer in Persian; a preview of the form exactly as a customer sees it at
 * phone width (the desk page's own DeskFields, with the desk's own choices); publish as a new version after a dialog
 * shows the diff against the live one and asks (PublishDialog); unsaved edits kept as a draft (draft.ts); a JSON
 * syntax error in Persian with its line and column (json-error.ts); the versions with their diffs and returns
 * (Versions.tsx), and download of the JSON file to commit under schemas/ (decision 014). Form types are listed by
 * their Persian title.
 */
import { Badge, Box, Button, Callout, Code, Flex, Heading, Select, Text, TextArea } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Component, type ReactNode, useEffect, useMemo, useState } from 'react';
import type { components } from '../../../../generated/api';
import { formatNumber } from '../../../../shared/format';
import type { Desk } from '../../../../generated/schemas/desk';
import type { FormType } from '../../../../generated/schemas/form';
import { DateText } from '../../../components/date/DateText';
import { DeskFields, type DeskFormData } from '../../../components/form-engine/DeskFields';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { CalendarPreview } from './CalendarPreview';
import { jsonSyntaxProblem } from './json-error';
import { jsonText } from './line-diff';
import { PublishDialog } from './PublishDialog';
import { Versions } from './Versions';
import { useDraft } from './draft';

type Entry = components['schemas']['CatalogueEntry'];
type Problem = components['schemas']['CatalogueProblem'];
type Kind = Entry['kind'];

const ENTRIES_KEY = ['staff', 'catalogue', 'entries'];
const KIND_TITLE: Record<Kind, string> = {
  desk: 'میز',
  form: 'نوع فرم',
  plan: 'برنامهٔ سفر تحصیلی',
  calendar: 'تقویم کاری',
};
const KIND_GROUP: Record<Kind, string> = {
  form: 'انواع فرم',
  desk: 'میزها',
  plan: 'برنامه‌های سفر تحصیلی',
  calendar: 'تقویم‌های کاری',
};

const keyOf = (e: { kind: Kind; identifier: string }) => `${e.kind}:${e.identifier}`;

/** The JSON text parsed, or the Persian reason it is not JSON. */
function parseJson(text: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'متن باید یک شیء JSON باشد.' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: jsonSyntaxProblem(text, (error as Error).message).message };
  }
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function ProblemList({ problems, testId }: { problems: Problem[]; testId: string }) {
  return (
    <ul className="missing-list" data-testid={testId}>
      {problems.map((p, i) => (
        <li key={`${p.file}${p.pointer}${i}`}>
          <Text size="2">
            <Code dir="ltr" variant="ghost">
              {p.pointer || '/'}
            </Code>{' '}
            {p.msg}
          </Text>
        </li>
      ))}
    </ul>
  );
}

interface PlanStepDraft {
  key: string;
  title?: string;
  desk: string;
  order: number;
  optional?: boolean;
}

/** A plan template's steps in order, each with the title of the desk it opens (the customer's page adds prices). */
function PlanPreview({ document, desks }: { document: Record<string, unknown>; desks: Desk[] }) {
  const steps = [...((document.steps as PlanStepDraft[] | undefined) ?? [])].sort((a, b) => a.order - b.order);
  return (
    <Box
      data-testid="catalogue-preview"
      style={{ width: 390, maxWidth: '100%', border: '1px solid var(--gray-6)', borderRadius: 12, padding: 12 }}
    >
      <Heading size="3" mb="2">
        {String(document.title ?? document.identifier ?? '')}
      </Heading>
      <ol>
        {steps.map((step) => (
          <li key={step.key}>
            <Text size="2">
              {step.title ?? desks.find((d) => d.identifier === step.desk)?.title ?? step.desk}
              {step.optional ? ' (اختیاری)' : ''}
            </Text>
          </li>
        ))}
      </ol>
    </Box>
  );
}

/** The form as a customer sees it at phone width. */
function Preview({
  kind,
  document,
  forms,
  desks,
}: {
  kind: Kind;
  document: Record<string, unknown>;
  forms: FormType[];
  desks: Desk[];
}) {
  const [data, setData] = useState<DeskFormData>({});
  const pair = useMemo(() => {
    if (kind === 'desk') {
      const desk = document as unknown as Desk;
      const form = forms.find((f) => f.formType === desk.formType);
      return form ? { desk, form } : null;
    }
    const form = document as unknown as FormType;
    const desk =
      desks.find((d) => d.formType === form.formType) ??
      ({ identifier: 'preview', formType: form.formType, comps: {}, isCashService: false } as unknown as Desk);
    return { desk, form };
  }, [kind, document, forms, desks]);
  if (!pair) return <Text size="2">نوع فرم این میز پیدا نشد.</Text>;
  return (
    <Box
      data-testid="catalogue-preview"
      style={{ width: 390, maxWidth: '100%', border: '1px solid var(--gray-6)', borderRadius: 12, padding: 12 }}
    >
      <Heading size="3" mb="2">
        {pair.desk.title ?? pair.form.formType}
      </Heading>
      <PreviewBoundary key={JSON.stringify(document)}>
        <DeskFields desk={pair.desk} form={pair.form} formData={data} onChange={setData} />
      </PreviewBoundary>
    </Box>
  );
}

/** A preview of a document that passed the checks but still cannot be drawn says so instead of breaking the page. */
class PreviewBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <Text size="2">پیش‌نمایش این نسخه ممکن نشد.</Text> : this.props.children;
  }
}

function Editor({ entry, forms, desks }: { entry: Entry; forms: FormType[]; desks: Desk[] }) {
  const queryClient = useQueryClient();
  const liveText = useMemo(() => jsonText(entry.document), [entry.document]);
  // Unsaved edits are kept as a draft in this browser (draft.ts): leaving the page loses nothing.
  const { text, setText, restoredAt, discard } = useDraft(entry, liveText);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  // The document the last answer was about: the preview waits for its own check, which also lets the server serve
  // its validators (a draft's are served only after it passed).
  const [checkedFor, setCheckedFor] = useState<Record<string, unknown> | null>(null);
  const [checking, setChecking] = useState(false);
  const [asking, setAsking] = useState(false);

  const parsed = useMemo(() => parseJson(text), [text]);
  const document = 'value' in parsed ? parsed.value : null;

  // Checked by the server as one types (debounced): the same checks as publish and `npm run schemas:check`.
  useEffect(() => {
    if (!document) {
      setProblems(null);
      return;
    }
    let stale = false;
    setChecking(true);
    const timer = setTimeout(() => {
      call<{ problems: Problem[] }>(api.POST('/api/sys/checkCatalogueEntry', { body: { kind: entry.kind, document } }))
        .then((r) => {
          if (stale) return;
          setProblems(r.problems);
          setCheckedFor(document);
        })
        .catch(() => !stale && setProblems(null))
        .finally(() => !stale && setChecking(false));
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [document, entry.kind]);

  const valid = document !== null && problems !== null && problems.length === 0 && !checking;
  const changed = text !== liveText;

  /** Publishes the draft (after the dialog showed its diff and staff agreed); a refusal names its problems. */
  const publish = async (): Promise<string> => {
    const res = await api.POST('/api/sys/publishCatalogueEntry', { body: { kind: entry.kind, document: document! } });
    if (res.error) {
      const body = res.error as { msg?: string; data?: { problems?: Problem[] } };
      if (body.data?.problems) setProblems(body.data.problems);
      throw new ApiError(body.msg ?? FALLBACK_MESSAGE, res.response.status, res.error);
    }
    await queryClient.invalidateQueries({ queryKey: ['staff', 'catalogue'] });
    void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    return res.data.msg;
  };

  const fileName = `${entry.identifier}.json`;
  return (
    <Flex direction="column" gap="4">
      <Flex gap="4" wrap="wrap" align="start">
        <Flex direction="column" gap="2" style={{ flex: '1 1 min(420px, 100%)', minWidth: 0 }}>
          {restoredAt && changed && (
            <Callout.Root color="amber" size="1" data-testid="catalogue-draft-restored">
              <Callout.Text>
                پیش‌نویس منتشرنشده‌ای که پیش‌تر این‌جا نوشته بودید (<DateText value={restoredAt} format="dateTime" />)
                بازگردانده شد. با «برگرداندن متن به نسخهٔ منتشرشده» کنار گذاشته می‌شود.
              </Callout.Text>
            </Callout.Root>
          )}
          <Text as="label" htmlFor="catalogue-json" weight="bold">
            JSON {KIND_TITLE[entry.kind]} <Code dir="ltr">{entry.identifier}</Code>
          </Text>
          <TextArea
            id="catalogue-json"
            dir="ltr"
            className="ltr"
            spellCheck={false}
            rows={24}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="catalogue-problems"
            aria-invalid={document === null || (problems?.length ?? 0) > 0}
            style={{ fontFamily: 'var(--code-font)', fontSize: 13, textAlign: 'left' }}
            data-testid="catalogue-editor"
          />
          <Box id="catalogue-problems" aria-live="polite">
            {'error' in parsed ? (
              <Text size="2" color="red" data-testid="catalogue-json-error">
                {parsed.error}
              </Text>
            ) : checking ? (
              <Text size="2" color="gray">
                در حال بررسی…
              </Text>
            ) : problems && problems.length > 0 ? (
              <Callout.Root color="red" size="1">
                <Callout.Text>این نسخه {formatNumber(problems.length)} ایراد دارد:</Callout.Text>
                <ProblemList problems={problems} testId="catalogue-editor-problems" />
              </Callout.Root>
            ) : problems ? (
              <Text size="2" color="green" data-testid="catalogue-valid">
                درست است و می‌توان آن را منتشر کرد.
              </Text>
            ) : null}
          </Box>
          <Flex gap="2" wrap="wrap">
            <Button onClick={() => setAsking(true)} disabled={!valid || !changed} data-testid="catalogue-publish">
              انتشار…
            </Button>
            <Button variant="soft" onClick={() => download(fileName, text)} data-testid="catalogue-download">
              دانلود فایل JSON
            </Button>
            <Button variant="outline" disabled={!changed} onClick={discard} data-testid="catalogue-discard">
              برگرداندن متن به نسخهٔ منتشرشده
            </Button>
          </Flex>
          {asking && document && (
            <PublishDialog
              title={entry.title}
              before={entry.document}
              after={document}
              onPublish={publish}
              onClose={() => setAsking(false)}
            />
          )}
        </Flex>
        <Flex direction="column" gap="2" style={{ flex: '0 1 410px', minWidth: 0, maxWidth: '100%' }}>
          <Text weight="bold">پیش‌نمایش برای مشتری (عرض گوشی)</Text>
          {document && checkedFor === document && problems?.length === 0 ? (
            entry.kind === 'plan' ? (
              <PlanPreview document={document} desks={desks} />
            ) : entry.kind === 'calendar' ? (
              <CalendarPreview document={document} />
            ) : (
              <Preview kind={entry.kind} document={document} forms={forms} desks={desks} />
            )
          ) : (
            <Text size="2" color="gray">
              پیش‌نمایش پس از رفع ایرادها نشان داده می‌شود.
            </Text>
          )}
        </Flex>
      </Flex>
      <Versions entry={entry} />
    </Flex>
  );
}

export default function CatalogueEditorPage() {
  const entries = useQuery({
    queryKey: ENTRIES_KEY,
    queryFn: () => call<{ entries: Entry[]; problems: Problem[] }>(api.POST('/api/sys/fetchCatalogueEntries')),
  });
  const [selected, setSelected] = useState<string | null>(null);
  const list = entries.data?.entries ?? [];
  const entry = list.find((e) => keyOf(e) === selected) ?? null;
  const forms = list.filter((e) => e.kind === 'form').map((e) => e.document as unknown as FormType);
  const desks = list.filter((e) => e.kind === 'desk').map((e) => e.document as unknown as Desk);

  return (
    <Flex direction="column" gap="4" data-testid="catalogue-page">
      <Heading size="5">کاتالوگ میزها و فرم‌ها</Heading>
      <Text size="2" color="gray">
        فایل‌های بازبینی‌شدهٔ مخزن پیش‌فرض‌اند؛ نسخهٔ منتشرشده از این صفحه جای فایل را می‌گیرد و بی‌درنگ برای همهٔ مشتریان
        زنده می‌شود.
      </Text>
      {entries.isError && (
        <Callout.Root color="red">
          <Callout.Text>{digMessage(entries.error) ?? FALLBACK_MESSAGE}</Callout.Text>
        </Callout.Root>
      )}
      {(entries.data?.problems.length ?? 0) > 0 && (
        <Callout.Root color="orange" data-testid="catalogue-file-problems">
          <Callout.Text>این فایل‌ها پذیرفته نشدند و نسخهٔ پیشینشان زنده مانده است:</Callout.Text>
          {entries.data!.problems.map((p, i) => (
            <Text as="div" size="2" key={i}>
              <Code dir="ltr" variant="ghost">
                {p.file} {p.pointer}
              </Code>{' '}
              {p.msg}
            </Text>
          ))}
        </Callout.Root>
      )}
      <Flex direction="column" gap="1" style={{ maxWidth: 480 }}>
        <Text as="label" weight="bold" id="catalogue-entry-label">
          میز یا نوع فرم
        </Text>
        <Select.Root value={selected ?? undefined} onValueChange={setSelected}>
          <Select.Trigger
            placeholder="یک میز، نوع فرم یا برنامه را انتخاب کنید"
            aria-labelledby="catalogue-entry-label"
            data-testid="catalogue-entry-select"
          />
          <Select.Content position="popper">
            {(['form', 'desk', 'plan', 'calendar'] as const).map((kind) => (
              <Select.Group key={kind}>
                <Select.Label>{KIND_GROUP[kind]}</Select.Label>
                {list
                  .filter((e) => e.kind === kind)
                  .map((e) => (
                    <Select.Item key={keyOf(e)} value={keyOf(e)} data-testid={`catalogue-entry-${keyOf(e)}`}>
                      {e.title}
                      {e.source === 'published' ? ` — نسخهٔ ${formatNumber(e.version ?? 0)}` : ''}
                    </Select.Item>
                  ))}
              </Select.Group>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      {entry && (
        <Flex gap="2" align="center" wrap="wrap">
          <Badge>{KIND_TITLE[entry.kind]}</Badge>
          <Badge color={entry.source === 'published' ? 'green' : 'gray'} data-testid="catalogue-source">
            {entry.source === 'published'
              ? `منتشرشده، نسخهٔ ${formatNumber(entry.version ?? 0)}`
              : 'از فایل بازبینی‌شده'}
          </Badge>
          {entry.file && (
            <Code dir="ltr" variant="ghost">
              {entry.file}
            </Code>
          )}
        </Flex>
      )}
      {entry && <Editor key={keyOf(entry)} entry={entry} forms={forms} desks={desks} />}
    </Flex>
  );
}
