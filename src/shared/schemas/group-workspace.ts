import { z } from 'zod';
import { requiredChoice, requiredEmail, requiredText } from '../validation.ts';

/**
 * The central organization's workspace (docs/roles.md "Central organizations"): the groups a user
 * may open, one group's summary, its users and the invitation of a new one. One schema per payload
 * serves the form, the route and the service.
 */

/** A central organization user's role: a manager invites and removes users and acts; a viewer reads. */
export const GROUP_ROLES = ['manager', 'viewer'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** What each role is called on the page and in the mail. */
export const GROUP_ROLE_LABELS: Record<GroupRole, string> = { manager: 'Manager', viewer: 'Viewer' };

/** The texts of the workspace's answers, shared by the server and the page. */
export const GROUP_WORKSPACE_TEXT = {
  managersOnly: 'Only a manager of the group can do this.',
  staffAccount: 'This e-mail address belongs to a staff user: staff reach every group without an invitation.',
  alreadyUser: 'This person is already a user of the group.',
  lastManager: 'The group keeps at least one manager: make another user a manager first.',
  invited: (email: string) => `${email} was invited to the group's workspace.`,
  added: (email: string) => `${email} can now open the group's workspace.`,
  removed: (email: string) => `${email} can no longer open the group's workspace.`,
} as const;

/** Path parameters of a workspace route. */
export const groupParams = z.object({ groupId: z.string() });

/** Path parameters of a route about one of the group's users. */
export const groupUserParams = z.object({ groupId: z.string(), userId: z.string() });

/** Path parameters of a route about one of the group's checks of a list of EINs. */
export const groupCheckParams = z.object({ groupId: z.string(), id: z.string() });

/** POST /api/app/groups/{groupId}/users: who to invite and in which role. */
export const groupUserInviteSchema = z.object({
  email: requiredEmail(),
  first_name: requiredText({ label: 'first name' }),
  last_name: requiredText({ label: 'last name' }),
  role: requiredChoice('role', GROUP_ROLES),
});
export type GroupUserInvite = z.output<typeof groupUserInviteSchema>;

/** A group the user may open, as the workspace list shows it. */
export const workspaceSummarySchema = z.object({
  id: z.number().int(),
  label: z.string(),
  gen: z.string().nullable(),
  central_name: z.string(),
  /** The caller's role; 'staff' for the provider's staff. */
  role: z.enum([...GROUP_ROLES, 'staff']),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

/** GET /api/app/groups: the groups the signed-in user is a user of, by name. */
export const workspaceListSchema = z.object({ data: z.array(workspaceSummarySchema) });

/** One user of the group, as the workspace lists them. */
export const groupUserSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(GROUP_ROLES),
  /** When they were invited, while they have not chosen a password yet; null once they have. */
  invited_at: z.string().nullable(),
  added_at: z.string(),
});
export type GroupUser = z.infer<typeof groupUserSchema>;

/** GET /api/app/groups/{groupId}/users. */
export const groupUserListSchema = z.object({ data: z.array(groupUserSchema) });

/** What an invitation or a removal answers: the message to show, and the user concerned. */
export const groupUserChangedSchema = z.object({ message: z.string(), user: groupUserSchema.optional() });
