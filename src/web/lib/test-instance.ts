/**
 * Whether this page came from a test instance, one whose bank is the sandbox (decision 023): the server marks every
 * page it sends then (src/server/http/test-instance.ts), with the banner above the app. False while prerendering in
 * Node and under Vite's dev server, which serve the page themselves.
 */
import { TEST_INSTANCE_ATTRIBUTE, TEST_INSTANCE_VALUE } from '../../shared/test-instance';

export function isTestInstance(): boolean {
  return (
    typeof document !== 'undefined' &&
    document.documentElement.getAttribute(TEST_INSTANCE_ATTRIBUTE) === TEST_INSTANCE_VALUE
  );
}
