/**
 * A request's conversation with staff, on the customer's request page and on staff's: the messages oldest first
 * (who wrote each as a role — «شما» / «کارشناس» to the customer —, its Jalali time, the text shown literally, an
 * attached image's link), and a box to write with a character counter, an image or PDF to attach through the upload and
 * send. A refused send keeps the text and shows why. Staff also see internal notes, set apart, and write one with
 * a toggle. purchase.message refreshes the list (lib/realtime.ts).
 */
import { FileTextIcon, ImageIcon, LockClosedIcon } from '@radix-ui/react-icons';
import {
  Badge,
  Box,
  Button,
  Callout,
  Flex,
  Heading,
  Link as RadixLink,
  Skeleton,
  Switch,
  Text,
  TextArea,
} from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toPersianDigits } from '../../../shared/digits';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import {
  conversationQuery,
  MESSAGE_MAX_LENGTH,
  type PurchaseMessage,
  sendMessage,
} from '../../lib/queries/conversations';
import { DateText } from '../date/DateText';
import { IMAGE_TYPES, uploadImage } from '../form-engine/widgets/upload';
import { LoadError } from '../states/LoadError';

/** The upload purpose of an attachment (the server accepts only the sender's uploads of this purpose). */
const ATTACHMENT_PREFIX = 'purchaseMessage';
/** What a message may carry: the upload's images, or a PDF. */
const ATTACHMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'];
const NOT_ATTACHABLE = 'فقط تصویر (JPEG، PNG یا WebP) یا فایل PDF پیوست کنید.';
export const INTERNAL_NOTE_LABEL = 'یادداشت داخلی — مشتری نمی‌بیند';

/** Internal notes stand apart: amber, dashed. */
const NOTE_STYLE = { background: 'var(--amber-3)', border: '1px dashed var(--amber-8)', borderRadius: 8 };

/** A message's box: the reader's own messages on a tinted ground, others' on grey, notes amber. */
function bubble(mine: boolean, internal: boolean) {
  if (internal) return { ...NOTE_STYLE, padding: 8 };
  return {
    background: mine ? 'var(--accent-3)' : 'var(--gray-3)',
    borderRadius: 8,
    padding: 8,
    marginInlineStart: mine ? 0 : 24,
    marginInlineEnd: mine ? 24 : 0,
  };
}

function author(m: PurchaseMessage, staff: boolean): string {
  if (!staff) return m.fromStaff ? 'کارشناس' : 'شما';
  return m.fromStaff ? `کارشناس${m.authorName ? ` (${m.authorName})` : ''}` : 'مشتری';
}

function MessageItem({ message, staff }: { message: PurchaseMessage; staff: boolean }) {
  const mine = staff ? message.fromStaff : !message.fromStaff;
  return (
    <Box
      style={bubble(mine, message.internal)}
      data-testid={message.internal ? 'conversation-note' : 'conversation-message'}
      data-from={message.fromStaff ? 'staff' : 'customer'}
    >
      <Flex justify="between" gap="2" wrap="wrap" align="center">
        <Flex gap="2" align="center">
          <Text size="2" weight="bold" data-testid="message-author">
            {author(message, staff)}
          </Text>
          {message.internal && (
            <Badge color="amber" size="1">
              <LockClosedIcon /> {INTERNAL_NOTE_LABEL}
            </Badge>
          )}
        </Flex>
        <Text size="1" color="gray">
          <DateText value={message.createdAt} format="dateTime" relative />
        </Text>
      </Flex>
      {message.body && (
        <Text
          as="p"
          size="2"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: '4px 0 0' }}
          data-testid="message-body"
        >
          {message.body}
        </Text>
      )}
      {message.attachmentUrl && (
        <RadixLink
          href={message.attachmentUrl}
          target="_blank"
          rel="noopener"
          size="2"
          data-testid="message-attachment"
        >
          {/\.pdf\?/.test(message.attachmentUrl) ? (
            <>
              <FileTextIcon /> فایل PDF پیوست
            </>
          ) : (
            <>
              <ImageIcon /> تصویر پیوست
            </>
          )}
        </RadixLink>
      )}
    </Box>
  );
}

function Composer({ purchaseId, staff }: { purchaseId: number; staff: boolean }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const [attachment, setAttachment] = useState<{ path: string; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const tooLong = text.length > MESSAGE_MAX_LENGTH;
  const empty = text.trim() === '' && !attachment;

  const attach = async (picked: File | undefined) => {
    if (!picked) return;
    if (!ATTACHMENT_TYPES.includes(picked.type)) {
      setError(NOT_ATTACHABLE);
      return;
    }
    setUploading(true);
    setError(null);
    try {
      const uploaded = await uploadImage(picked, ATTACHMENT_PREFIX);
      setAttachment({ path: uploaded.path, name: picked.name });
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      await sendMessage({ purchase: purchaseId, body: text, attachment: attachment?.path ?? null, internal }, staff);
      setText('');
      setAttachment(null);
      await queryClient.invalidateQueries({ queryKey: conversationQuery(purchaseId, staff).queryKey });
    } catch (e) {
      // The text stays in the box to send again.
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="2" p={internal ? '2' : '0'} style={internal ? NOTE_STYLE : undefined}>
      <TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={internal ? 'یادداشتی برای همکاران بنویسید…' : 'پیام خود را بنویسید…'}
        aria-label={internal ? 'متن یادداشت داخلی' : 'متن پیام'}
        rows={3}
        data-testid="message-input"
      />
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Text size="1" color={tooLong ? 'red' : 'gray'} data-testid="message-counter">
          <span className="ltr">
            {toPersianDigits(text.length)} / {toPersianDigits(MESSAGE_MAX_LENGTH)}
          </span>
        </Text>
        {staff && (
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Switch checked={internal} onCheckedChange={setInternal} data-testid="message-internal" />
              {INTERNAL_NOTE_LABEL}
            </Flex>
          </Text>
        )}
      </Flex>
      {attachment && (
        <Flex gap="2" align="center">
          <Badge color="gray" data-testid="message-attached">
            <ImageIcon /> {attachment.name}
          </Badge>
          <Button size="1" variant="ghost" color="gray" onClick={() => setAttachment(null)}>
            حذف پیوست
          </Button>
        </Flex>
      )}
      {error && (
        <Callout.Root color="red" size="1" role="alert" data-testid="message-error">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
      <input
        ref={file}
        type="file"
        accept={ATTACHMENT_TYPES.join(',')}
        hidden
        data-testid="message-file"
        onChange={(e) => void attach(e.target.files?.[0])}
      />
      <Flex gap="2" wrap="wrap">
        <Button
          onClick={() => void send()}
          loading={busy}
          disabled={empty || tooLong || uploading}
          data-testid="message-send"
        >
          {internal ? 'ثبت یادداشت' : 'ارسال پیام'}
        </Button>
        <Button variant="soft" onClick={() => file.current?.click()} loading={uploading} type="button">
          <ImageIcon /> پیوست تصویر یا PDF
        </Button>
      </Flex>
    </Flex>
  );
}

export function Conversation({ purchaseId, staff = false }: { purchaseId: number; staff?: boolean }) {
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(conversationQuery(purchaseId, staff));
  return (
    <Flex direction="column" gap="3" data-testid="conversation">
      <Heading size="3" as="h3">
        {staff ? 'گفتگو با مشتری' : 'گفتگو با کارشناس'}
      </Heading>
      {isPending ? (
        <Skeleton height="80px" />
      ) : isError ? (
        <LoadError
          error={error}
          fallback="دریافت پیام‌ها ممکن نشد."
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.items.length === 0 ? (
        <Text size="2" color="gray">
          {staff ? 'پیامی برای این درخواست نیست.' : 'سوالی دربارهٔ این درخواست دارید؟ برای کارشناس بنویسید.'}
        </Text>
      ) : (
        <Flex direction="column" gap="2" data-testid="conversation-messages">
          {data.items.map((m) => (
            <MessageItem key={m.id} message={m} staff={staff} />
          ))}
        </Flex>
      )}
      <Composer purchaseId={purchaseId} staff={staff} />
    </Flex>
  );
}
