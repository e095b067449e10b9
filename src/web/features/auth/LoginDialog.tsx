import { Dialog } from '@radix-ui/themes';
import { LoginForm } from './LoginForm';

export function LoginDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px">
        <Dialog.Title>ورود به ارزپی</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          با شماره موبایل وارد شوید؛ اگر حساب ندارید، با اولین ورود ساخته می‌شود.
        </Dialog.Description>
        {open && <LoginForm onDone={() => onOpenChange(false)} />}
      </Dialog.Content>
    </Dialog.Root>
  );
}
