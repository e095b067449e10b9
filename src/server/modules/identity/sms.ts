/**
 * Sending SMS behind one small interface. `log` (default) writes a JSON log line with msg "sms",
 * mobileNo and text; `kavenegar` calls Kavenegar's documented verify/lookup REST API
 * (GET {base}/v1/{API-KEY}/verify/lookup.json?receptor=&token=&template=), whose JSON answer
 * carries return.status 200 on success.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';

export interface LoginCodeSms {
  mobileNo: string;
  code: string;
  text: string;
}

export interface SmsSender {
  sendLoginCode(message: LoginCodeSms): Promise<void>;
}

export class SmsSendError extends Error {}

export function logSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async sendLoginCode({ mobileNo, text }) {
      log.info({ mobileNo, text }, 'sms');
    },
  };
}

export function kavenegarSmsSender(options: { apiKey: string; template: string; baseUrl: string }): SmsSender {
  return {
    async sendLoginCode({ mobileNo, code }) {
      const url = new URL(`/v1/${encodeURIComponent(options.apiKey)}/verify/lookup.json`, options.baseUrl);
      url.searchParams.set('receptor', mobileNo);
      url.searchParams.set('token', code);
      url.searchParams.set('template', options.template);
      let body: { return?: { status?: number; message?: string } };
      try {
        const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(10_000) });
        body = (await res.json()) as typeof body;
      } catch (error) {
        throw new SmsSendError(`kavenegar unreachable: ${(error as Error).message}`);
      }
      if (body.return?.status !== 200) {
        throw new SmsSendError(`kavenegar refused: ${body.return?.status} ${body.return?.message ?? ''}`);
      }
    },
  };
}

export function createSmsSender(config: AppConfig, log: FastifyBaseLogger): SmsSender {
  return config.smsDriver === 'kavenegar' && config.kavenegar
    ? kavenegarSmsSender(config.kavenegar)
    : logSmsSender(log);
}
