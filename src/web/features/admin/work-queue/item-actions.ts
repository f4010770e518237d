import { useQuery, type UseMutationResult } from '@tanstack/react-query';
import { workQueueContracts } from '../../../../shared/contracts/work-queue.ts';
import { call } from '../../../lib/http.ts';
import { queryOf } from '../../../lib/queries.ts';
import type { ContractAnswer, ContractInput } from '../../../../shared/contracts/contract.ts';

/** Today in the browser's calendar, 'YYYY-MM-DD' (the server checks against its own). */
export const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export type ActionAnswer = ContractAnswer<typeof workQueueContracts.assign>;
type BodyOf<K extends keyof typeof workQueueContracts> = ContractInput<(typeof workQueueContracts)[K]>['body'];

/** An action of the item drawer: the route it posts to (after the item's address) and its body. */
export type ItemAction =
  | { path: 'assign'; body: BodyOf<'assign'> }
  | { path: 'notes'; body: BodyOf<'addNote'> }
  | { path: 'resolve'; body: BodyOf<'resolve'> }
  | { path: 'accept-letter'; body: BodyOf<'acceptLetter'> }
  | { path: 'return-letter'; body: BodyOf<'returnLetter'> }
  | { path: 'reopen' };

/** The form an action came from: reset on success, shown the error on failure. */
interface ActionForm {
  reset: () => void;
  fail: (err: unknown) => void;
}

/** The drawer's one mutation: every part posts its action through it, so one answer refreshes the item. */
export type ItemActs = UseMutationResult<ActionAnswer, unknown, ItemAction & { form?: ActionForm }>;

/** The work item the drawer shows, as its route answers it. */
export type WorkItemView = ActionAnswer['item'];

/** Posts one action on item `id` to its route (src/shared/contracts/work-queue.ts). */
export function postAction(id: number, action: ItemAction): Promise<ActionAnswer> {
  const params = { id: String(id) };
  switch (action.path) {
    case 'assign':
      return call(workQueueContracts.assign, { params, body: action.body });
    case 'notes':
      return call(workQueueContracts.addNote, { params, body: action.body });
    case 'resolve':
      return call(workQueueContracts.resolve, { params, body: action.body });
    case 'accept-letter':
      return call(workQueueContracts.acceptLetter, { params, body: action.body });
    case 'return-letter':
      return call(workQueueContracts.returnLetter, { params, body: action.body });
    case 'reopen':
      return call(workQueueContracts.reopen, { params });
  }
}

/** The staff users an item can be assigned to. */
export function useStaff() {
  return useQuery({
    ...queryOf(workQueueContracts.staff, {}),
    staleTime: 60_000,
  });
}
