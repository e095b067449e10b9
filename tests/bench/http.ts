/** Price inquiries per second under autocannon, against a bare Fastify JSON route started in the same run. */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { loginByCode, startServer } from '../support/server';

async function run(opts: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 20, duration: 8, ...opts });
  return Math.round(result.requests.average);
}

export async function benchPriceInquiry() {
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => ({ result: true, msg: '', data: { ok: 1 } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareAddress = bare.server.address() as { port: number };
  const bareRps = await run({
    url: `http://127.0.0.1:${bareAddress.port}/bare`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  await bare.close();

  const server = await startServer({ web: false });
  try {
    const token = await loginByCode(server, '09129990000');
    const currencies = (await (
      await fetch(`${server.url}/api/public/searchCurrencies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { data: { items: Array<{ id: number; code: string }> } };
    const groups = (await (
      await fetch(`${server.url}/api/public/searchPaymentMethodGroups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { data: { items: Array<{ id: number; isCash: boolean }> } };
    const body = JSON.stringify({
      currency: currencies.data.items.find((c) => c.code === 'USD')!.id,
      amount: 250,
      requestedPaymentMethodGroup: groups.data.items.find((g) => !g.isCash)!.id,
    });
    const inquiryRps = await run({
      url: `${server.url}/api/me/desks/uafCpr/priceInquiry`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    return {
      database: server.app.database.kind,
      priceInquiryRps: inquiryRps,
      bareFastifyRps: bareRps,
      ratio: Number((inquiryRps / bareRps).toFixed(3)),
    };
  } finally {
    await server.stop();
  }
}
