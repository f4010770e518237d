import { GROUP_ROLE_LABELS, type GroupRole } from '../../../shared/schemas/group-workspace.ts';
import { mailDateTime } from '../mail/mail-html.ts';
import { typed, typedAddress } from '../mail/mail-words.ts';
import type { InvitationLinks, NoticeSender } from '../account-users/account-user-notices.ts';
import type { MailToQueue } from '../mail/enqueue-mail.ts';

/** What a central organization's notices name: the provider, the group, the role and who acted. */
export interface GroupNoticeContext extends NoticeSender {
  /** The group's name and GEN as staff entered them. */
  groupLabel: string;
  gen: string | null;
  role: GroupRole;
  /** Who invited: staff, or a manager of the group (their name and address as typed). */
  inviter: { isStaff: boolean; name: string; email: string };
}

const HELLO = 'Hello,';

/** The group as a notice names it: its name quoted, its GEN when it has one. */
const theGroup = (ctx: GroupNoticeContext) =>
  `the group ${typed(ctx.groupLabel)}${ctx.gen ? ` (group exemption number ${ctx.gen})` : ''}`;

/** Who sent the invitation, as the reader can recognise them. */
const inviterOf = (ctx: GroupNoticeContext) =>
  ctx.inviter.isStaff
    ? `${ctx.companyName} staff`
    : `its manager ${ctx.inviter.name.trim() ? `${typed(ctx.inviter.name)} (${typedAddress(ctx.inviter.email)})` : typedAddress(ctx.inviter.email)}`;

/**
 * The mails to a central organization's users (docs/roles.md "Central organizations"). As the
 * account users' notices, their subjects name no group (its name is typed by people) and only the
 * invitation carries a link with a token.
 */
export const groupUserNotices = {
  /**
   * An invitation to a new user: a one-time set-password link and the "This was not me" link
   * (docs/roles.md "Invitations"), a token mail.
   */
  invitation(ctx: GroupNoticeContext, email: string, links: InvitationLinks): MailToQueue[] {
    return [
      {
        kind: 'group_users.invitation',
        to: email,
        subject: `You are invited to a central organization's workspace on ${ctx.companyName}`,
        carriesToken: true,
        links: [links.setPassword, links.notMe],
        text:
          `${HELLO}\n\nYou were invited to the workspace of ${theGroup(ctx)} on ${ctx.companyName}, as ${GROUP_ROLE_LABELS[ctx.role].toLowerCase()}, ` +
          `with this e-mail address (${typedAddress(email)}). The invitation was sent by ${inviterOf(ctx)}.\n\n` +
          `Choose your password here. The link works once, until ${mailDateTime(links.expiresAt)}:\n${links.setPassword}\n\n` +
          `If the link has expired, ask a manager of the group to invite you again.\n\n` +
          `This was not me: if you do not know this group or did not expect this e-mail, open this page and press its button. ` +
          `The invitation ends, this address is taken off the group and ${ctx.companyName} staff are told:\n${links.notMe}\n`,
      },
    ];
  },

  /** A user who already signs in is given the workspace: no link, they sign in as they do. */
  added(ctx: GroupNoticeContext, email: string, signInUrl: string): MailToQueue[] {
    return [
      {
        kind: 'group_users.added',
        to: email,
        subject: `You can now open a central organization's workspace on ${ctx.companyName}`,
        links: [signInUrl],
        text:
          `${HELLO}\n\nYour sign-in (${typedAddress(email)}) can now open the workspace of ${theGroup(ctx)}, as ` +
          `${GROUP_ROLE_LABELS[ctx.role].toLowerCase()}. This was done by ${inviterOf(ctx)}. Sign in as usual:\n${signInUrl}\n\n` +
          `If you did not expect this, tell ${ctx.companyName}${ctx.companyContact ? ` at ${ctx.companyContact}` : ''}.\n`,
      },
    ];
  },
};
