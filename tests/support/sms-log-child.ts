/**
 * A process that sends one SMS through the `log` driver, on the logger the server builds for `SMS_DRIVER=argv[2]`,
 * behind a large log line still being written, and kills itself (SIGKILL) the moment the driver answers: as the
 * notification worker records an SMS sent once the driver answers, its line must be out by then
 * (tests/unit/sms-log-line.test.ts).
 */
import pino from 'pino';
import { logDestination, loggerOptions } from '../../src/server/http/log-options';
import { logSmsSender } from '../../src/server/modules/identity/sms';

const { stream, ...options } = loggerOptions('info', logDestination(process.argv[2] ?? 'log')) as pino.LoggerOptions & {
  stream?: pino.DestinationStream;
};
const log = pino(options, stream);
log.info({ filler: 'x'.repeat(4_000_000) }, 'filler');
await logSmsSender(log).sendText({ mobileNo: '09120000001', text: 'پیامک آزمایشی' });
process.kill(process.pid, 'SIGKILL');
