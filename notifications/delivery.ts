/**
 * Delivery channels of notifications beyond the in-app list. Off by default: `NOTIFY_EMAIL=true`
 * with an `SMTP_URL` sends each new notification by e-mail through nodemailer.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../platform/config';
import type { NotificationDelivery, NotificationRecord } from './notifications';

/** The few fields of a nodemailer transport the e-mail channel uses (a test passes a stub). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

export function emailText(name: string, notification: NotificationRecord): string {
  const details = Object.entries(notification.data)
    .map(([key, value]) => `  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
  return `Hello ${name},\n\n${notification.title}\n${details ? `\n${details}\n` : ''}\n(${notification.type}, ${notification.createdAt})\n`;
}

export function createEmailDelivery(options: { transport: MailTransport; from: string }): NotificationDelivery {
  return {
    name: 'email',
    async deliver(recipient, notification) {
      await options.transport.sendMail({
        from: options.from,
        to: recipient.email,
        subject: notification.title,
        text: emailText(recipient.name, notification),
      });
    },
  };
}

/** The channel the configuration asks for, or undefined (in-app only). */
export function deliveryFromConfig(config: Config): NotificationDelivery | undefined {
  if (!config.NOTIFY_EMAIL || !config.SMTP_URL) return undefined;
  const transport: Transporter = nodemailer.createTransport(config.SMTP_URL);
  return createEmailDelivery({ transport, from: config.SMTP_FROM });
}
