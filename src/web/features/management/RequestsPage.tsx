/**
 * Staff requests page, /management/requests: every request on the data-table engine (schemas/tables/requests.json);
 * «جزئیات» opens one with its price, fields and state history (the reasons staff gave), and for a paid request
 * still waiting for a decision, «انجام درخواست» opens the same dialog as its task in the queue (claiming the task):
 * a Google Ads recharge the charge dialog, for staff holding manageGoogleAds; any other request the fulfilment
 * dialog, for staff holding manageCurrencyPayments. The staff home links here narrowed to the states it counts
 * (`?state=paid,inProgress`) or with one request open (`?open=<id>`).
 */
import { Box, Button, Card, Dialog, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Cross2Icon } from '@radix-ui/react-icons';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toPersianDigits } from '../../../shared/digits';
import requests from '../../../../schemas/tables/requests.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { Fields } from '../../components/FieldsView';
import { PurchasePrice } from '../../components/payments/PurchasePrice';
import { StateHistory } from '../../components/payments/StateHistory';
import { RequestTimeline } from '../../components/payments/RequestTimeline';
import { LoadError } from '../../components/states/LoadError';
import { canAtom } from '../../lib/policy';
import { staffPurchaseQuery } from '../../lib/queries/fulfilment';
import { purchaseStatesQuery } from '../../lib/queries/purchases';
import { CHARGE_TASK } from '../../lib/queries/google-ads';
import { FulfilmentDialog } from './tasks/FulfilmentDialog';
import { GoogleAdsChargeDialog } from './tasks/GoogleAdsTaskDialogs';
import { ToneBadge } from '../../components/ToneBadge';
import { Conversation } from '../../components/conversation/Conversation';
import { RequestPromiseNote } from '../../components/deadline/PromiseNote';
import { CustomerAndDeadline } from './StaffRequestHeader';

/** The open task of a request, and which dialog decides it. */
interface OpenTask {
  id: number;
  googleAds: boolean;
}

const TABLE = asTableDef(requests);

function RequestBody({ purchaseId, onFulfil }: { purchaseId: number; onFulfil: (task: OpenTask) => void }) {
  const can = useAtomValue(canAtom);
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(staffPurchaseQuery(purchaseId));
  if (isPending) return <Skeleton height="240px" />;
  if (isError)
    return (
      <LoadError
        error={error}
        fallback="دریافت اطلاعات درخواست ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  const { purchase } = data;
  const googleAds = data.openTaskType === CHARGE_TASK;
  const mayDecide = can(googleAds ? 'manageGoogleAds' : 'manageCurrencyPayments');
  return (
    <Flex direction="column" gap="3">
      <Flex gap="2" align="center" wrap="wrap">
        <Text size="2">وضعیت:</Text>
        <ToneBadge size="2" tone={purchase.stateColor} data-testid="request-state">
          {purchase.stateTitle}
        </ToneBadge>
        <Text size="2">{purchase.deskTitle}</Text>
      </Flex>
      <Flex gap="3" align="center" wrap="wrap" data-testid="staff-request-who">
        <CustomerAndDeadline
          customer={data.customer}
          deadlineAt={purchase.deadlineAt}
          deadlineAtRisk={data.deadlineAtRisk}
        />
      </Flex>
      <RequestPromiseNote promise={purchase.promise} />
      <PurchasePrice purchase={purchase} waiting={purchase.state === 'waitingForPayment'} />
      {data.openTaskId !== null && mayDecide && (
        <Box>
          <Button onClick={() => onFulfil({ id: data.openTaskId!, googleAds })} data-testid="open-fulfilment">
            {googleAds ? 'ثبت شارژ حساب' : 'انجام درخواست'}
          </Button>
        </Box>
      )}
      {purchase.fieldsView.length > 0 && (
        <>
          <Heading size="3" as="h3">
            اطلاعات درخواست
          </Heading>
          <Box data-testid="request-fields">
            <Fields fields={purchase.fieldsView} />
          </Box>
        </>
      )}
      <RequestTimeline timeline={data.timeline} />
      <Heading size="3" as="h3">
        تاریخچه وضعیت
      </Heading>
      <StateHistory history={data.history} />
      <Conversation purchaseId={purchaseId} staff />
    </Flex>
  );
}

/** The states the list is narrowed to (`?state=paid,inProgress`, from the staff home), with a way back to all. */
function StateFilter({ states, onClear }: { states: string[]; onClear: () => void }) {
  const all = useQuery(purchaseStatesQuery);
  return (
    <Flex gap="2" align="center" wrap="wrap" data-testid="requests-state-filter">
      <Text size="2">فقط درخواست‌های در وضعیت:</Text>
      {states.map((state) => {
        const known = all.data?.items.find((s) => s.identifier === state);
        return (
          <ToneBadge key={state} size="2" tone={known?.color ?? '#757575'}>
            {known?.title ?? state}
          </ToneBadge>
        );
      })}
      <Button size="1" variant="ghost" onClick={onClear} data-testid="requests-state-filter-clear">
        <Cross2Icon /> همهٔ درخواست‌ها
      </Button>
    </Flex>
  );
}

export default function RequestsPage() {
  const queryClient = useQueryClient();
  // The staff home links here narrowed to some states, or to one request opened (`?open=<id>`).
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state') ?? '';
  const openParam = Number(params.get('open'));
  const [opened, setOpened] = useState<number | null>(
    Number.isSafeInteger(openParam) && openParam > 0 ? openParam : null,
  );
  const def = useMemo(
    () => (stateParam ? { ...TABLE, source: { ...TABLE.source, params: { state: stateParam } } } : TABLE),
    [stateParam],
  );
  const [task, setTask] = useState<OpenTask | null>(null);
  const decided = (changed: boolean) => {
    setTask(null);
    if (changed) {
      setRefresh((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: ['staff'] });
      void queryClient.invalidateQueries({ queryKey: ['table', TABLE.name] });
    }
  };
  const [refresh, setRefresh] = useState(0);

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      {stateParam && (
        <StateFilter
          states={stateParam.split(',')}
          onClear={() =>
            setParams((p) => {
              p.delete('state');
              return p;
            })
          }
        />
      )}
      <Card size="2">
        <DataTable
          def={def}
          narrowed={Boolean(stateParam)}
          refreshKey={`${stateParam}#${refresh}`}
          stackOnMobile
          actions={(row) => (
            <Button
              size="1"
              variant="soft"
              onClick={() => setOpened(Number(row.id))}
              aria-label={`جزئیات درخواست ${String(row.id)}`}
              data-testid="open-request"
            >
              جزئیات
            </Button>
          )}
        />
      </Card>
      <Dialog.Root
        open={opened !== null && task === null}
        onOpenChange={(o) => {
          if (o) return;
          setOpened(null);
          if (params.has('open'))
            setParams(
              (p) => {
                p.delete('open');
                return p;
              },
              { replace: true },
            );
        }}
      >
        <Dialog.Content maxWidth="min(720px, 94vw)" data-testid="staff-request-detail">
          <Dialog.Title>درخواست شماره {opened === null ? '' : toPersianDigits(opened)}</Dialog.Title>
          <Dialog.Description size="2" color="gray" mb="3">
            قیمت، اطلاعات و تاریخچه وضعیت درخواست.
          </Dialog.Description>
          {opened !== null && <RequestBody key={opened} purchaseId={opened} onFulfil={setTask} />}
        </Dialog.Content>
      </Dialog.Root>
      <FulfilmentDialog taskId={task && !task.googleAds ? task.id : null} onClose={decided} />
      <GoogleAdsChargeDialog taskId={task?.googleAds ? task.id : null} onClose={decided} />
    </Flex>
  );
}
