/**
 * The mark of a test instance (decision 023): while the sandbox bank is the gateway, the server puts this
 * attribute on every HTML page's `<html>` (src/server/http/test-instance.ts) and the web reads it
 * (src/web/lib/test-instance.ts). Its value names the gateway that makes the instance a test.
 */
export const TEST_INSTANCE_ATTRIBUTE = 'data-test-instance';
export const TEST_INSTANCE_VALUE = 'sandbox';
