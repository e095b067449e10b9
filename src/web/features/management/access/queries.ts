/** Queries the access pages share, and the one invalidation every access change triggers. */
import type { components } from '../../../../generated/api';
import { api, call } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query';

export type UserSummary = components['schemas']['UserSummary'];
export type Group = components['schemas']['Group'];
export type Action = components['schemas']['Action'];

export const groupsQuery = {
  queryKey: ['access', 'groups'],
  queryFn: () => call<{ items: Group[] }>(api.GET('/api/users/getGroups')),
};

export const actionsQuery = {
  queryKey: ['access', 'actions'],
  queryFn: () => call<{ items: Action[] }>(api.GET('/api/users/getActions')),
};

export const staffQuery = {
  queryKey: ['access', 'staff'],
  queryFn: () => call<{ items: UserSummary[] }>(api.GET('/api/users/getUsers')),
};

/** Users, groups and actions refer to each other (members, counts), so a change refreshes all three. */
export function invalidateAccess(): void {
  void queryClient.invalidateQueries({ queryKey: ['access'] });
  for (const table of ['users', 'groups', 'actions'])
    void queryClient.invalidateQueries({ queryKey: ['table', table] });
}
