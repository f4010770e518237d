import { getCompany } from '../content/get-company.ts';
import { mailDateTime } from '../mail/mail-html.ts';
import { typed, typedAddress } from '../mail/mail-words.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { MailToQueue } from '../mail/enqueue-mail.ts';

/** The provider named in the notices (docs/roles.md "Notices"). */
export interface NoticeSender {
  companyName: string;
  /** The provider's contact e-mail or phone, '' when none is kept. */
  companyContact: string;
  /** config.publicUrl: the origin of the links in the mails (they leave the site). */
  publicUrl: string;
}

/**
 * Who the notices say they come from, and whom to contact: the company's name and its e-mail (or
 * phone). Reads the company's settings.
 * @param publicUrl config.publicUrl, the origin of the notices' links
 */
export async function noticeSenderOf(db: Db, publicUrl: string): Promise<NoticeSender> {
  const company = await getCompany(db);
  return { companyName: company.name, companyContact: company.email || company.phone, publicUrl };
}

/** What the notices name: the provider, the account and who acted. */
export interface NoticeContext extends NoticeSender {
  accountName: string;
  actor: Actor;
  /** When the change was made (now, unless a test says otherwise). */
  at?: Date;
}

/** A user a notice is about or goes to. */
interface Person {
  email: string;
}

/**
 * Every notice starts the same way. It names nobody: a name is typed by whoever added the user,
 * and a greeting would put it first, as if it were ours (docs/security.md "Mail carries only our links").
 */
const HELLO = 'Hello,';

/** The account as a notice names it: its name as its users typed it. */
const theAccount = (ctx: NoticeSender & { accountName: string }) =>
  `the ${ctx.companyName} account named ${typed(ctx.accountName)}`;

/** A user of the account as a notice names them: the name they typed (when any) and their address, both as typed. */
function someone(name: string, email: string): string {
  return name.trim() ? `${typed(name)} (${typedAddress(email)})` : typedAddress(email);
}

/** Who made the change, as the reader can recognise it: themselves, a named user, or staff. */
function byWhom(ctx: NoticeContext, reader: Person & { id: number }): string {
  if (ctx.actor.onBehalf) return `by ${ctx.companyName} staff`;
  if (ctx.actor.userId === reader.id) return 'by you';
  return `by ${someone(ctx.actor.name, ctx.actor.email)}`;
}

function footer(ctx: NoticeSender): string {
  const contact = ctx.companyContact ? ` or ${ctx.companyName} at ${ctx.companyContact}` : ` or ${ctx.companyName}`;
  return `\nIf you did not expect this, contact your organization's primary user${contact} right away.\n`;
}

/** When, as the notices print it. */
const when = (ctx: { at?: Date }) => `on ${mailDateTime(ctx.at ?? new Date())}`;

/**
 * What to do when a sign-in change was not the reader's doing: take the sign-in back, then tell us.
 * Without a link, as every notice (docs/roles.md "Notices"): a mail that looks like ours cannot
 * lead anyone to a false sign-in page.
 */
function notYouFooter(ctx: NoticeContext): string {
  const contact = ctx.companyContact ? ` at ${ctx.companyContact}` : '';
  return (
    `\nIf this was not you, someone else may have your password: choose a new one right away with ` +
    `"Forgot your password?" on the ${ctx.companyName} sign-in page, and tell your organization's primary user and ${ctx.companyName}${contact}.\n`
  );
}

/** Why a pending invitation ended (docs/roles.md "Invitations"). */
export type InvitationEndReason = 'declined' | 'application_started';

/** The links of one invitation: choosing the password, and "This was not me". */
export interface InvitationLinks {
  /** The one-time set-password link (issueResetToken). */
  setPassword: string;
  /** The page that ends the invitation (`/invitation/not-me/{token}`, the same token). */
  notMe: string;
  /** When the set-password link stops working. */
  expiresAt: Date;
}

/**
 * The notices of docs/roles.md, as outbox rows. They never carry a password or a link with a
 * token, but for the invitation: they only say what changed, when and by whom. Whatever a user
 * typed (names, the account's name, addresses) is shown as typed (mail-words.ts), never in a
 * subject.
 */
export const accountUserNotices = {
  /** An e-mail change: to the old address and to the new one. */
  emailChanged(ctx: NoticeContext, user: Person & { id: number }, oldEmail: string, newEmail: string): MailToQueue[] {
    const text =
      `${HELLO}\n\nThe sign-in e-mail address of your account, ${theAccount(ctx)}, was changed ` +
      `${when(ctx)} ${byWhom(ctx, user)} from ${typedAddress(oldEmail)} to ${typedAddress(newEmail)}. Sign in with the new address from now on. For your safety, ` +
      `you were signed out on other devices.\n${notYouFooter(ctx)}`;
    const subject = `Your ${ctx.companyName} sign-in e-mail address was changed`;
    return [
      { kind: 'account_users.email_changed', to: oldEmail, subject, text },
      { kind: 'account_users.email_changed', to: newEmail, subject, text },
    ];
  },

  /**
   * A password change: to the address the user had before this change (`user.email` is that
   * address), so a change made with a stolen session still reaches its owner.
   */
  passwordChanged(ctx: NoticeContext, user: Person & { id: number }): MailToQueue[] {
    return [
      {
        kind: 'account_users.password_changed',
        to: user.email,
        subject: `Your ${ctx.companyName} password was changed`,
        text:
          `${HELLO}\n\nThe password of your sign-in to ${theAccount(ctx)} was changed ${when(ctx)} ${byWhom(ctx, user)}. ` +
          `For your safety, you were signed out on other devices.\n${notYouFooter(ctx)}`,
      },
    ];
  },

  /**
   * An invitation: to the new user, with their one-time set-password link and the "This was not
   * me" link (docs/roles.md "Invitations"): a token mail, the only mail of this module with links,
   * kept from staff and dropped once sent. The subject names no account: the account's name is
   * typed by its users, so it is only in the body, quoted.
   */
  invitation(ctx: NoticeContext, user: Person & { id: number }, links: InvitationLinks): MailToQueue[] {
    const inviter = ctx.actor.onBehalf
      ? `${ctx.companyName} staff`
      : `its user ${someone(ctx.actor.name, ctx.actor.email)}`;
    return [
      {
        kind: 'account_users.invitation',
        to: user.email,
        subject: `You are invited to an account on ${ctx.companyName}`,
        carriesToken: true,
        links: [links.setPassword, links.notMe],
        text:
          `${HELLO}\n\nYou were invited to sign in to an account on ${ctx.companyName} with this e-mail address (${typedAddress(user.email)}). ` +
          `The account's name, as its users typed it: ${typed(ctx.accountName)}. The invitation was sent by ${inviter}.\n\n` +
          `Choose your password here. The link works once, until ${mailDateTime(links.expiresAt)}:\n${links.setPassword}\n\n` +
          `If the link has expired, ask the account's primary user to send a new invitation.\n\n` +
          `This was not me: if you do not know this account or did not expect this e-mail, open this page and press its button. ` +
          `The invitation ends, this address is taken off the account and ${ctx.companyName} staff are told:\n${links.notMe}\n`,
      },
    ];
  },

  /** A removal: to the removed user. */
  removed(ctx: NoticeContext, user: Person & { id: number }): MailToQueue[] {
    return [
      {
        kind: 'account_users.removed',
        to: user.email,
        subject: `You were removed from an account on ${ctx.companyName}`,
        text:
          `${HELLO}\n\nYour sign-in (${typedAddress(user.email)}) was removed from ${theAccount(ctx)} ` +
          `${byWhom(ctx, user)}. You can no longer sign in with it, and every signed-in device was signed out.\n${footer(ctx)}`,
      },
    ];
  },

  /** A primary transfer: to the former primary user (when there was one) and to the new one. */
  primaryTransferred(
    ctx: NoticeContext,
    from: (Person & { id: number }) | null,
    to: Person & { id: number },
  ): MailToQueue[] {
    const subject = `The primary user of your ${ctx.companyName} account changed`;
    const mails: MailToQueue[] = [];
    if (from) {
      mails.push({
        kind: 'account_users.primary_transferred',
        to: from.email,
        subject,
        text:
          `${HELLO}\n\nYou are no longer the primary user of ${theAccount(ctx)}; ` +
          `${typedAddress(to.email)} is. This was changed ${byWhom(ctx, from)}. You can still sign in and edit your own details. ` +
          `For your safety, you were signed out on other devices.\n${footer(ctx)}`,
      });
    }
    mails.push({
      kind: 'account_users.primary_transferred',
      to: to.email,
      subject,
      text:
        `${HELLO}\n\nYou are now the primary user of ${theAccount(ctx)}` +
        `${from ? `, in place of ${typedAddress(from.email)}` : ''}. This was changed ${byWhom(ctx, to)}. You can now add, edit and remove ` +
        `the account's users. For your safety, you were signed out; sign in again to continue.\n${footer(ctx)}`,
    });
    return mails;
  },

  /**
   * A pending invitation ended by its recipient (docs/roles.md "Invitations"): to the account's
   * primary user, and to the staff address. The primary user learns only what they knew (the
   * address they invited) and that its recipient ended it, the same words whatever the reason;
   * staff learn the reason and get the account's staff page.
   * @param ctx.staffEmail config.mail.staffEmail; `primary` null when the account has no other primary user
   */
  invitationEnded(
    ctx: NoticeSender & { accountName: string; accountId: number; staffEmail: string; at: Date },
    invitedEmail: string,
    reason: InvitationEndReason,
    primary: Person | null,
  ): MailToQueue[] {
    const mails: MailToQueue[] = [];
    if (primary) {
      mails.push({
        kind: 'account_users.invitation_ended',
        to: primary.email,
        subject: `An invitation to your ${ctx.companyName} account was ended`,
        text:
          `${HELLO}\n\nThe invitation of ${typedAddress(invitedEmail)} to ${theAccount(ctx)} was ended by its recipient ${when(ctx)}. ` +
          `That address is no longer a user of the account, and its set-password link no longer works.\n\n` +
          `Please invite only people who expect it. If this person should join, ask them first, then add them again.\n${footer(ctx)}`,
      });
    }
    const how =
      reason === 'declined'
        ? 'The recipient pressed "This was not me" in the invitation mail.'
        : 'The address started an application of its own, which a pending invitation may not prevent; the invitation was ended so that it could.';
    const adminLink = `${ctx.publicUrl}/admin/accounts/show/${ctx.accountId}`;
    mails.push({
      kind: 'account_users.invitation_ended.staff',
      to: ctx.staffEmail,
      subject:
        reason === 'declined'
          ? 'An invitation was declined: "This was not me"'
          : 'An invitation was ended by an application',
      links: [adminLink],
      text:
        `${HELLO}\n\nA pending invitation was ended ${when(ctx)}. ${how}\n\n` +
        `Invited address: ${typedAddress(invitedEmail)}\n` +
        `Account: ${typed(ctx.accountName)} (account ${ctx.accountId})\n\n` +
        `The invited user was removed from the account; the audit log holds the event. ` +
        `Check whether the account sends invitations to people who do not expect them: ${adminLink}\n`,
    });
    return mails;
  },
};
