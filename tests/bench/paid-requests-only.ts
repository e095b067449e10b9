/** `node --import tsx tests/bench/paid-requests-only.ts`: the paid-request figure alone, printed (not saved). */
import { benchPaidRequests } from './payments';

console.log(JSON.stringify(await benchPaidRequests(), null, 2));
process.exit(0);
