import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import tasksTable from '../../../../../schemas/tables/tasks.json';
import type { components } from '../../../../generated/api';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { api, call } from '../../../lib/api-client';
import { BankAccountReviewDialog } from './BankAccountReviewDialog';
import { CardReviewDialog } from './CardReviewDialog';
import { FULFILMENT_TASK_TYPES } from '../../../lib/queries/fulfilment';
import { FulfilmentDialog } from './FulfilmentDialog';
import { GoogleAdsChargeDialog, MakeGoogleAdsAccountDialog } from './GoogleAdsTaskDialogs';
import { CHARGE_TASK, MAKE_ACCOUNT_TASK } from '../../../lib/queries/google-ads';
import { ProfileReviewDialog } from './ProfileReviewDialog';
import { formatNumber } from '../../../../shared/format';
import { ToneBadge } from '../../../components/ToneBadge';

type TaskType = components['schemas']['TaskType'];
const TABLE = asTableDef(tasksTable);

/**
 * Current tasks with their type colours; a profile-approval, bank-account or card ownership task opens its review
 * dialog.
 */
export default function TasksPage() {
  const [openTask, setOpenTask] = useState<number | null>(null);
  const [openFulfilment, setOpenFulfilment] = useState<number | null>(null);
  const [openBankTask, setOpenBankTask] = useState<number | null>(null);
  const [openCardTask, setOpenCardTask] = useState<number | null>(null);
  const [openMakeAccount, setOpenMakeAccount] = useState<number | null>(null);
  const [openCharge, setOpenCharge] = useState<number | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  // `?type=<task type>` narrows the queue to one type (the staff home's count links here); its chip toggles it.
  const [params, setParams] = useSearchParams();
  const typeFilter = params.get('type') ?? '';
  const def = useMemo(
    () => (typeFilter ? { ...TABLE, source: { ...TABLE.source, params: { type: typeFilter } } } : TABLE),
    [typeFilter],
  );
  const toggleType = (type: string) =>
    setParams((p) => {
      if (p.get('type') === type) p.delete('type');
      else p.set('type', type);
      return p;
    });
  // Task-type lists are emptied before each search: the query has no placeholder data.
  const types = useQuery({
    queryKey: ['taskTypes', refreshKey],
    queryFn: () => call<{ items: TaskType[] }>(api.POST('/api/sys/searchTaskTypes')),
  });
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">کارهای جاری</Heading>
      <Flex gap="2" wrap="wrap" data-testid="task-types">
        {(types.data?.items ?? []).map((t) => (
          <button
            type="button"
            key={t.identifier}
            className="chip-button"
            aria-pressed={typeFilter === t.identifier}
            onClick={() => toggleType(t.identifier)}
            data-testid={`task-type-${t.identifier}`}
          >
            <ToneBadge size="2" tone={t.color}>
              {t.title}: {formatNumber(t.openCount)}
            </ToneBadge>
          </button>
        ))}
      </Flex>
      <Card size="2">
        <DataTable
          def={def}
          narrowed={Boolean(typeFilter)}
          refreshKey={`${typeFilter}#${refreshKey}`}
          actions={(row) =>
            row.type === MAKE_ACCOUNT_TASK || row.type === CHARGE_TASK ? (
              <Button
                size="1"
                onClick={() => (row.type === CHARGE_TASK ? setOpenCharge : setOpenMakeAccount)(Number(row.id))}
                data-testid={`open-task-${String(row.id)}`}
              >
                انجام
              </Button>
            ) : FULFILMENT_TASK_TYPES.includes(String(row.type)) ? (
              <Button
                size="1"
                onClick={() => setOpenFulfilment(Number(row.id))}
                data-testid={`open-task-${String(row.id)}`}
              >
                انجام
              </Button>
            ) : row.type === 'approveProfileAsL1Task' ||
              row.type === 'approveUbaOwnerTask' ||
              row.type === 'approveUserCardTask' ? (
              <Button
                size="1"
                onClick={() =>
                  (row.type === 'approveUbaOwnerTask'
                    ? setOpenBankTask
                    : row.type === 'approveUserCardTask'
                      ? setOpenCardTask
                      : setOpenTask)(Number(row.id))
                }
                data-testid={`open-task-${String(row.id)}`}
              >
                بررسی
              </Button>
            ) : null
          }
        />
      </Card>
      <BankAccountReviewDialog
        taskId={openBankTask}
        onClose={(changed) => {
          setOpenBankTask(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
      <CardReviewDialog
        taskId={openCardTask}
        onClose={(changed) => {
          setOpenCardTask(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
      <FulfilmentDialog
        taskId={openFulfilment}
        onClose={(changed) => {
          setOpenFulfilment(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
      <MakeGoogleAdsAccountDialog
        taskId={openMakeAccount}
        onClose={(changed) => {
          setOpenMakeAccount(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
      <GoogleAdsChargeDialog
        taskId={openCharge}
        onClose={(changed) => {
          setOpenCharge(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
      <ProfileReviewDialog
        taskId={openTask}
        onClose={(changed) => {
          setOpenTask(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
    </Flex>
  );
}
