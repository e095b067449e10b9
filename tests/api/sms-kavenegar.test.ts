/**
 * The Kavenegar driver against a local HTTP server that answers as Kavenegar's documentation says:
 * GET /v1/{API-KEY}/verify/lookup.json?receptor=&token=&template= → {"return":{"status":200,...},"entries":[...]}.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, type RunningServer, startServer } from '../support/server';

const calls: URL[] = [];
let fake: Server;
let failNext = false;
let server: RunningServer;

beforeAll(async () => {
  fake = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    calls.push(url);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (failNext || !url.pathname.startsWith('/v1/test-key/verify/lookup.json')) {
      failNext = false;
      res.end(JSON.stringify({ return: { status: 424, message: 'الگو معتبر نیست' }, entries: null }));
      return;
    }
    res.end(
      JSON.stringify({
        return: { status: 200, message: 'تایید شد' },
        entries: [
          {
            messageid: 8792343,
            message: url.searchParams.get('token'),
            status: 5,
            receptor: url.searchParams.get('receptor'),
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const port = (fake.address() as AddressInfo).port;
  server = await startServer({
    web: false,
    env: {
      SMS_DRIVER: 'kavenegar',
      KAVENEGAR_API_KEY: 'test-key',
      KAVENEGAR_TEMPLATE: 'arzpay-login',
      KAVENEGAR_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
});
afterAll(async () => {
  await server?.stop();
  fake?.close();
});

describe('Kavenegar SMS driver', () => {
  it('sends the code through verify/lookup with receptor, token and template', async () => {
    const res = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09351234567' });
    expect(res.status).toBe(200);
    const call = calls.at(-1)!;
    expect(call.pathname).toBe('/v1/test-key/verify/lookup.json');
    expect(call.searchParams.get('receptor')).toBe('09351234567');
    expect(call.searchParams.get('template')).toBe('arzpay-login');
    expect(call.searchParams.get('token')).toMatch(/^\d{5}$/);
    // The code that went out logs the customer in.
    const login = await post(server, '/api/me/loginByMobileValidationCode', {
      mobileNo: '09351234567',
      validationCode: call.searchParams.get('token'),
    });
    expect(login.status).toBe(200);
  });

  it('answers 502 with a Persian message when the provider refuses, and lets the customer ask again', async () => {
    failNext = true;
    const res = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09357654321' });
    expect(res.status).toBe(502);
    expect(res.body.msg).toBe('ارسال پیامک با خطا مواجه شد. لطفا دوباره تلاش کنید.');
    const again = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: '09357654321' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ activeCodeExists: false });
  });
});
