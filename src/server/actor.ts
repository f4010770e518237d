/**
 * Who acts in a request (docs/ARCHITECTURE.md "Access"): the signed-in user, whether staff, the
 * account acted on and whether on its behalf, the client's address and the request's id. A route
 * passes `req.actor` (plugins/access.ts) to the service that writes; a service names the parts it
 * reads with `Pick<Actor, …>`, so a test or a job can call it with those parts alone.
 */
export interface Actor {
  /** The signed-in user (users.id). */
  userId: number;
  /** First and last name, for what is sent or shown in the actor's name (an invitation). */
  name: string;
  email: string;
  /** The provider's staff (users.is_admin). */
  isStaff: boolean;
  /** The acting account of an account route (docs/roles.md), or null where the route has none. */
  accountId: number | null;
  /** Staff acting for an account that is not theirs: audited as such. */
  onBehalf: boolean;
  /** The client's address (req.ip), for the audit log. */
  ip: string;
  /** Fastify's request id, as the request log names the request. */
  requestId: string;
  /** sha256 of the session cookie (plugins/session.ts `hashId`): the one session a password change keeps. */
  sessionIdHash: string;
}
