import { Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * The line under a customer page's heading that says what the page holds. Drawn the same by the page and by its
 * signed-in frame (SignInPrompt), so the page takes the frame's place without the line moving or being painted again.
 */
export function PageDescription({ children }: { children: ReactNode }) {
  return (
    <Text as="p" size="2" color="gray" data-testid="page-description">
      {children}
    </Text>
  );
}
