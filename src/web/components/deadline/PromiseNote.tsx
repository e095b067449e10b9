/**
 * A request's promise before its deadline (decision 041), in the server's words: to pay by a time, promised, paid
 * too late for it, or missed and compensated. The customer's request page and staff's request dialog show it.
 */
import { Callout } from '@radix-ui/themes';
import type { components } from '../../../generated/api';

type RequestPromise = components['schemas']['RequestPromise'];

export function RequestPromiseNote({ promise }: { promise: RequestPromise | undefined }) {
  if (!promise) return null;
  const color = promise.compensatedAt ? 'orange' : promise.promisedBy ? 'green' : 'gray';
  return (
    <Callout.Root color={color} size="1" data-testid="request-promise">
      <Callout.Text>{promise.text}</Callout.Text>
    </Callout.Root>
  );
}
