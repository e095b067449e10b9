/** Prints the real-time figures of `npm run bench` alone: BENCH_SOCKETS (10,000) sockets and BENCH_DESK_PAGES pages. */
import { benchSockets } from './sockets';

console.log(JSON.stringify(await benchSockets(Number(process.env.BENCH_SOCKETS ?? 10_000)), null, 2));
process.exit(0);
