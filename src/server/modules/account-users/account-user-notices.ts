import { mailDateTime } from '../mail/mail-html.ts';
import type { MailToQueue } from '../mail/enqueue-mail.ts';
import type { AccountUserActor } from './account-user-roles.ts';

/** The provider named in the notices (docs/roles.md "Notices"). */
export interface NoticeSender {
  companyName: string;
  /** The provider's contact e-mail or phone, '' when none is kept. */
  companyContact: string;
  /** config.publicUrl: the origin of the links in the mails (they leave the site). */
  publicUrl: string;
}

/** What the notices name: the provider, the account and who acted. */
export interface NoticeContext extends NoticeSender {
  accountName: string;
  actor: AccountUserActor;
  /** When the change was made (now, unless a test says otherwise). */
  at?: Date;
}

/** A user a notice is about or goes to. */
interface Person {
  email: string;
  firstName: string;
}

const hello = (p: Person) => `Hello${p.firstName ? ` ${p.firstName}` : ''},`;

/** Who made the change, as the reader can recognise it: themselves, a named user, or staff. */
function byWhom(ctx: NoticeContext, reader: Person & { id: number }): string {
  if (ctx.actor.onBehalf) return `by ${ctx.companyName} staff`;
  if (ctx.actor.userId === reader.id) return 'by you';
  return `by ${ctx.actor.name || ctx.actor.email} (${ctx.actor.email})`;
}

function footer(ctx: NoticeContext): string {
  const contact = ctx.companyContact ? ` or ${ctx.companyName} at ${ctx.companyContact}` : ` or ${ctx.companyName}`;
  return `\nIf you did not expect this, contact your organization's primary user${contact} right away.\n`;
}

/** When, as the notices print it. */
const when = (ctx: NoticeContext) => `on ${mailDateTime(ctx.at ?? new Date())}`;

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

/**
 * The notices of docs/roles.md, as outbox rows. They never carry a password or a link with a
 * token: they only say what changed, when and by whom.
 */
export const accountUserNotices = {
  /** An e-mail change: to the old address and to the new one. */
  emailChanged(ctx: NoticeContext, user: Person & { id: number }, oldEmail: string, newEmail: string): MailToQueue[] {
    const text =
      `${hello(user)}\n\nThe sign-in e-mail address of your ${ctx.companyName} account for ${ctx.accountName} was changed ` +
      `${when(ctx)} ${byWhom(ctx, user)} from ${oldEmail} to ${newEmail}. Sign in with the new address from now on. For your safety, ` +
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
          `${hello(user)}\n\nThe password of your ${ctx.companyName} account for ${ctx.accountName} was changed ${when(ctx)} ${byWhom(ctx, user)}. ` +
          `For your safety, you were signed out on other devices.\n${notYouFooter(ctx)}`,
      },
    ];
  },

  /**
   * An invitation: to the new user, with their one-time set-password `link` (a token mail: the
   * only mail of this module with a link, kept from staff and dropped once sent), which works
   * until `expiresAt`.
   */
  invitation(ctx: NoticeContext, user: Person & { id: number }, link: string, expiresAt: Date): MailToQueue[] {
    const inviter = ctx.actor.onBehalf
      ? `${ctx.companyName} staff`
      : `${ctx.actor.name || ctx.actor.email} (${ctx.actor.email})`;
    const contact = ctx.companyContact ? ` or ${ctx.companyName} at ${ctx.companyContact}` : ` or ${ctx.companyName}`;
    return [
      {
        kind: 'account_users.invitation',
        to: user.email,
        subject: `You are invited to ${ctx.accountName} on ${ctx.companyName}`,
        carriesToken: true,
        text:
          `${hello(user)}\n\n${inviter} added you as a user of the ${ctx.companyName} account of ${ctx.accountName}. ` +
          `You will sign in with this e-mail address (${user.email}).\n\n` +
          `Choose your password here. The link works once, until ${mailDateTime(expiresAt)}:\n${link}\n\n` +
          `If the link has expired, ask your organization's primary user to send a new invitation.\n\n` +
          `If you do not know ${ctx.accountName}, you can ignore this e-mail${contact ? `, or tell${contact.replace(/^ or/, '')}` : ''}.\n`,
      },
    ];
  },

  /** A removal: to the removed user. */
  removed(ctx: NoticeContext, user: Person & { id: number }): MailToQueue[] {
    return [
      {
        kind: 'account_users.removed',
        to: user.email,
        subject: `You were removed from ${ctx.accountName} on ${ctx.companyName}`,
        text:
          `${hello(user)}\n\nYour sign-in (${user.email}) was removed from the ${ctx.companyName} account of ${ctx.accountName} ` +
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
    const subject = `The primary user of ${ctx.accountName} changed`;
    const mails: MailToQueue[] = [];
    if (from) {
      mails.push({
        kind: 'account_users.primary_transferred',
        to: from.email,
        subject,
        text:
          `${hello(from)}\n\nYou are no longer the primary user of the ${ctx.companyName} account of ${ctx.accountName}; ` +
          `${to.email} is. This was changed ${byWhom(ctx, from)}. You can still sign in and edit your own details. ` +
          `For your safety, you were signed out on other devices.\n${footer(ctx)}`,
      });
    }
    mails.push({
      kind: 'account_users.primary_transferred',
      to: to.email,
      subject,
      text:
        `${hello(to)}\n\nYou are now the primary user of the ${ctx.companyName} account of ${ctx.accountName}` +
        `${from ? `, in place of ${from.email}` : ''}. This was changed ${byWhom(ctx, to)}. You can now add, edit and remove ` +
        `the account's users. For your safety, you were signed out; sign in again to continue.\n${footer(ctx)}`,
    });
    return mails;
  },
};
