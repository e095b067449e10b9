import { Dialog } from '@radix-ui/themes';
import { useLocation, useNavigate } from 'react-router-dom';
import { accessAtom } from '../../lib/session';
import { landingPath } from '../../lib/staff-pages';
import { store } from '../../lib/store';
import { LoginForm } from './LoginForm';

/** The log-in over the current page, which stays (a form keeps its data); from home, staff go on to their work. */
export function LoginDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>ورود به ارزپی</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          با شماره موبایل وارد شوید؛ اگر حساب ندارید، با اولین ورود ساخته می‌شود.
        </Dialog.Description>
        {open && (
          <LoginForm
            onDone={() => {
              onOpenChange(false);
              if (location.pathname === '/') navigate(landingPath(store.get(accessAtom)));
            }}
          />
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
