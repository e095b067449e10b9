/**
 * Sending SMS behind one small interface. `log` (default) writes a JSON log line with msg "sms",
 * mobileNo and text; `kavenegar` calls Kavenegar's documented REST API, whose JSON answer carries return.status 200
 * on success: log-in codes through verify/lookup (GET {base}/v1/{API-KEY}/verify/lookup.json?receptor=&token=
 * &template=), notifications' free text through sms/send (GET {base}/v1/{API-KEY}/sms/send.json?receptor=&message=),
 * whose entries carry the provider's message id.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';

export interface LoginCodeSms {
  mobileNo: string;
  code: string;
  text: string;
}

export interface TextSms {
  mobileNo: string;
  text: string;
}

export interface SmsSender {
  sendLoginCode(message: LoginCodeSms): Promise<void>;
  /** Sends a free text (a notification); answers the driver's id of the message, kept as its record. */
  sendText(message: TextSms): Promise<string>;
}

export class SmsSendError extends Error {}

export function logSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async sendLoginCode({ mobileNo, text }) {
      log.info({ mobileNo, text }, 'sms');
    },
    async sendText({ mobileNo, text }) {
      const messageId = `log-${randomUUID()}`;
      log.info({ mobileNo, text, messageId }, 'sms');
      return messageId;
    },
  };
}

type KavenegarAnswer = { return?: { status?: number; message?: string }; entries?: Array<{ messageid?: number }> };

/** One GET to Kavenegar; its JSON answer when return.status is 200, SmsSendError otherwise. */
async function kavenegarCall(url: URL): Promise<KavenegarAnswer> {
  let body: KavenegarAnswer;
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(10_000) });
    body = (await res.json()) as KavenegarAnswer;
  } catch (error) {
    throw new SmsSendError(`kavenegar unreachable: ${(error as Error).message}`);
  }
  if (body.return?.status !== 200) {
    throw new SmsSendError(`kavenegar refused: ${body.return?.status} ${body.return?.message ?? ''}`);
  }
  return body;
}

export function kavenegarSmsSender(options: { apiKey: string; template: string; baseUrl: string }): SmsSender {
  return {
    async sendLoginCode({ mobileNo, code }) {
      const url = new URL(`/v1/${encodeURIComponent(options.apiKey)}/verify/lookup.json`, options.baseUrl);
      url.searchParams.set('receptor', mobileNo);
      url.searchParams.set('token', code);
      url.searchParams.set('template', options.template);
      await kavenegarCall(url);
    },
    async sendText({ mobileNo, text }) {
      const url = new URL(`/v1/${encodeURIComponent(options.apiKey)}/sms/send.json`, options.baseUrl);
      url.searchParams.set('receptor', mobileNo);
      url.searchParams.set('message', text);
      const body = await kavenegarCall(url);
      const id = body.entries?.[0]?.messageid;
      if (id === undefined) throw new SmsSendError('kavenegar answered without a message id');
      return String(id);
    },
  };
}

export function createSmsSender(config: AppConfig, log: FastifyBaseLogger): SmsSender {
  return config.smsDriver === 'kavenegar' && config.kavenegar
    ? kavenegarSmsSender(config.kavenegar)
    : logSmsSender(log);
}
