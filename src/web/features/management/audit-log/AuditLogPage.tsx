/**
 * The audit trail, /management/audit-log (action viewAuditLog): who did what to which record and when, with what
 * changed («field: before ← after»), on the data-table engine (schemas/tables/auditLog.json) with search, the person
 * who acted, the action and kind of record (chosen from those the trail holds), a date range in the chosen calendar
 * and an xlsx export of what is shown. Actions, kinds of record and fields are named in Persian from one place,
 * src/shared/audit/names.ts (docs/operations.md, the audit trail).
 */
import { Card, Flex, Heading, Select, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import auditLogTable from '../../../../../schemas/tables/auditLog.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DateRangeFilter, useDateRange } from '../../../components/date/DateRangeFilter';
import { api, call } from '../../../lib/api-client';
import { auditActionName, auditEntityName } from '../../../../shared/audit/names';

const TABLE = asTableDef(auditLogTable);
const ALL = 'all';

/** The actions and kinds of record the trail holds, for the filters (one row asked for; the lists come with it). */
const facetsQuery = {
  queryKey: ['table', TABLE.name, 'facets'],
  queryFn: () =>
    call<{ actions: string[]; entities: string[] }>(api.POST('/api/sys/searchAuditLog', { body: { perPage: 1 } })),
};

function FacetSelect(props: {
  id: string;
  label: string;
  value: string;
  options: string[];
  /** The option's Persian name. */
  nameOf: (option: string) => string;
  onChange: (v: string) => void;
}) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" htmlFor={props.id}>
        {props.label}
      </Text>
      <Select.Root value={props.value} onValueChange={props.onChange}>
        <Select.Trigger id={props.id} aria-label={props.label} />
        <Select.Content position="popper">
          <Select.Item value={ALL}>همه</Select.Item>
          {props.options.map((option) => (
            <Select.Item key={option} value={option}>
              {props.nameOf(option)}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}

/** The rows with their action and kind of record named in Persian (the filters keep the identifiers). */
const persianNames = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => ({
    ...row,
    action: auditActionName(String(row.action)),
    entity: auditEntityName(String(row.entity)),
  }));

export default function AuditLogPage() {
  const facets = useQuery(facetsQuery);
  const [actor, setActor] = useState('');
  const [action, setAction] = useState(ALL);
  const [entity, setEntity] = useState(ALL);
  const range = useDateRange();
  const typedActor = useDeferredValue(actor.trim());

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => {
    const params = {
      ...(typedActor ? { actor: typedActor } : {}),
      ...(action !== ALL ? { action } : {}),
      ...(entity !== ALL ? { entity } : {}),
      ...range.params,
    };
    return { ...TABLE, source: { ...TABLE.source, params } };
  }, [typedActor, action, entity, range.params]);

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <Flex direction="column" gap="1">
              <Text as="label" size="2" htmlFor="audit-actor">
                انجام‌دهنده
              </Text>
              <TextField.Root
                id="audit-actor"
                value={actor}
                onChange={(e) => setActor(e.target.value)}
                placeholder="نام، موبایل یا شناسه"
                maxLength={100}
              />
            </Flex>
            <FacetSelect
              id="audit-action"
              label="کار"
              value={action}
              options={facets.data?.actions ?? []}
              nameOf={auditActionName}
              onChange={setAction}
            />
            <FacetSelect
              id="audit-entity"
              label="نوع رکورد"
              value={entity}
              options={facets.data?.entities ?? []}
              nameOf={auditEntityName}
              onChange={setEntity}
            />
            <DateRangeFilter idPrefix="audit" range={range} />
          </Flex>
          {/* Recorded values are long JSON: they wrap inside their cells rather than widen the table past the page. */}
          <div className="audit-log-table">
            <DataTable
              narrowed={Object.keys(def.source.params).length > 0}
              def={def}
              refreshKey={JSON.stringify(def.source.params)}
              stackOnMobile
              decorate={persianNames}
            />
          </div>
        </Flex>
      </Card>
    </Flex>
  );
}
