import { GROUP_ROLE_LABELS } from '../../../shared/schemas/group-workspace.ts';
import type { WorkspaceSummary } from '../../../shared/schemas/group-workspace.ts';

/**
 * What the pages of the central organization's workspace (docs/roles.md "Central organizations")
 * share: the query key of the user's workspaces, the roles' names and a group's one-line description.
 */

/** The query cache's key of GET /api/app/groups. */

/** The caller's role as the workspace names it: a group's roles, and staff. */
export const ROLE_LABEL: Record<WorkspaceSummary['role'], string> = { ...GROUP_ROLE_LABELS, staff: 'Staff' };

/** "GEN 1234 · Central organization Inc": what is known of the group besides its label, or '' when nothing is. */
export function describeGroup(w: Pick<WorkspaceSummary, 'gen' | 'central_name'>): string {
  return [w.gen && `GEN ${w.gen}`, w.central_name].filter(Boolean).join(' · ');
}
