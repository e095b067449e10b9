import { ExclamationTriangleIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Box, Button, Callout } from '@radix-ui/themes';
import { digMessage } from '../../lib/api-client';

/** A failed load, in Persian, with the server's message when there is one and a retry button. */
export function LoadError({
  error,
  fallback,
  onRetry,
  retrying = false,
  testId,
}: {
  error: unknown;
  fallback: string;
  onRetry: () => void;
  retrying?: boolean;
  testId?: string;
}) {
  return (
    <Callout.Root color="red" role="alert" data-testid={testId}>
      <Callout.Icon>
        <ExclamationTriangleIcon />
      </Callout.Icon>
      <Callout.Text>{digMessage(error) ?? fallback}</Callout.Text>
      <Box>
        <Button variant="soft" color="red" onClick={onRetry} loading={retrying}>
          <ReloadIcon /> تلاش دوباره
        </Button>
      </Box>
    </Callout.Root>
  );
}
