/**
 * Keeps one live connection per signed-in identity; staff see new tasks in a snackbar of the task's colour. The
 * connection and its code (lib/realtime.ts, laravel-echo, socket.io-client) start once the first screen is drawn (this
 * effect runs after the shell's first commit) and the browser is idle, typically while the page waits for its data:
 * not in the long tasks of the first render. Not later than that: news sent between the page's first answers and the
 * join is lost (a payment's page back from the bank, then staff taking it at once).
 */
import { Box, Callout, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { whenIdle } from '../../lib/idle';
import { loadUser, sessionReadyAtom, userAtom } from '../../lib/session';
import { toPersianDigits } from '../../../shared/digits';
import { readableBehindWhite } from '../../../shared/color/contrast';

interface TaskSnack {
  color: string;
  text: string;
  items: string[];
}

export function LiveUpdates() {
  const user = useAtomValue(userAtom);
  const ready = useAtomValue(sessionReadyAtom);
  const [snack, setSnack] = useState<TaskSnack | null>(null);
  const uid = user?.uid ?? null;
  const userId = user?.id ?? null;
  const isStaff = Boolean(user?.isStaff);

  useEffect(() => {
    if (!ready) return;
    let stopped = false;
    let stop: (() => void) | null = null;
    // A review sends profile.reviewed and userProfile.changed together: one fetch answers both.
    let reloading: Promise<unknown> | null = null;
    const reloadUser = () => {
      reloading ??= loadUser().finally(() => {
        reloading = null;
      });
    };
    const connect = async () => {
      const { connectLive } = await import('../../lib/realtime');
      return connectLive({
        userUid: uid,
        isStaff,
        onEvent: (event, data) => {
          if (event === 'profile.reviewed') reloadUser();
          if (event === 'userProfile.changed' && (data as { userId?: number }).userId === userId) reloadUser();
          if (event === 'task.created') {
            const task = data as { title: string; color: string; taskId: number };
            setSnack({
              color: task.color,
              text: 'کار جدید',
              items: [task.title, `شماره ${toPersianDigits(task.taskId)}`],
            });
          }
        },
      });
    };
    const cancel = whenIdle(() => {
      if (stopped) return;
      void connect().then((c) => {
        if (stopped) c.stop();
        else stop = c.stop;
      });
    });
    return () => {
      stopped = true;
      cancel();
      stop?.();
    };
  }, [ready, uid, userId, isStaff]);

  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(() => setSnack(null), 3000);
    return () => clearTimeout(timer);
  }, [snack]);

  if (!snack) return null;
  return (
    <Box
      style={{ position: 'fixed', top: 64, insetInline: 12, zIndex: 2000, display: 'flex', justifyContent: 'center' }}
      data-testid="task-snackbar"
    >
      <Callout.Root
        variant="surface"
        style={{ background: readableBehindWhite(snack.color), color: 'white', boxShadow: 'var(--shadow-6)' }}
        role="status"
      >
        <Callout.Text>
          <Text weight="bold">{snack.text}: </Text>
          {snack.items.join(' — ')}
        </Callout.Text>
      </Callout.Root>
    </Box>
  );
}
