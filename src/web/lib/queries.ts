import {
  queryKeyOf,
  type ContractAnswer,
  type ContractInput,
  type RouteAddress,
  type RouteContract,
} from '../../shared/contracts/contract.ts';
import { call, type HttpFailure } from './http.ts';
import type { DataTag, QueryKey } from '@tanstack/react-query';

/**
 * A read through its route's contract, for `useQuery` (docs/ARCHITECTURE.md "Query keys"): the key
 * is the contract's URL and the call's input ({@link queryKeyOf}), the function is {@link call}.
 * The key carries the answer's type, so `setQueryData(q.queryKey, …)` is checked against it.
 * @example useQuery({ ...queryOf(workQueueContracts.show, { params: { id } }), retry: false })
 * @param route the route's contract, or its `routeAt` address (a public page that keeps zod out)
 * @param input `{ params, query }` as the contract's schemas accept them
 * @returns `{ queryKey, queryFn }`
 */
export function queryOf<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  input: ContractInput<C>,
): { queryKey: DataTag<QueryKey, ContractAnswer<C>, HttpFailure>; queryFn: () => Promise<ContractAnswer<C>> } {
  // Tagged as TanStack's queryOptions tags a key: the tag is a type only, the key is the plain array.
  const queryKey = queryKeyOf(route, input) as DataTag<QueryKey, ContractAnswer<C>, HttpFailure>;
  return { queryKey, queryFn: () => call(route, input) };
}

/**
 * The key that every cached read of a route starts with, or every read with these path
 * parameters: what `invalidateQueries` and `removeQueries` take after a change, matched as a
 * prefix of the keys {@link queryOf} makes.
 * @param params some of the route's path parameters, as {@link queryOf} was given them
 * @returns `[url]` or `[url, params]`
 */
export function keyOf<const C extends RouteContract>(
  route: C | RouteAddress<C>,
  params?: Partial<NonNullable<ContractInput<C>['params']>>,
): QueryKey {
  return params ? [route.url, params] : [route.url];
}
