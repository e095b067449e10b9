import { Button, Card, Checkbox, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import usersTable from '../../../../../schemas/tables/users.json';
import { isValidMobile } from '../../../../shared/validation';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { asTableDef, DataTable } from '../../data-table/DataTable';
import { showSnackbar } from '../../shell/snackbar';

/** Users: search every account; add a staff member with a password. */
export default function UsersPage() {
  const [refreshKey, setRefreshKey] = useState(0);
  const [mobileNo, setMobileNo] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [isStaff, setIsStaff] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!isValidMobile(mobileNo)) {
      setError('شماره موبایل، صحیح نیست.');
      return;
    }
    setError(null);
    try {
      await call(
        api.POST('/api/users/saveUser', {
          body: { mobileNo, firstName, lastName, isStaff, ...(password ? { password } : {}) },
        }),
      );
      showSnackbar('ذخیره شد.', 'green');
      setMobileNo('');
      setFirstName('');
      setLastName('');
      setPassword('');
      setRefreshKey((k) => k + 1);
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">کاربران</Heading>
      <Card size="2">
        <form onSubmit={save}>
          <Flex gap="2" wrap="wrap" align="end">
            <TextField.Root
              placeholder="موبایل"
              dir="ltr"
              value={mobileNo}
              onChange={(e) => setMobileNo(e.target.value)}
              aria-label="موبایل"
            />
            <TextField.Root
              placeholder="نام"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              aria-label="نام"
            />
            <TextField.Root
              placeholder="نام خانوادگی"
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              aria-label="نام خانوادگی"
            />
            <TextField.Root
              placeholder="رمز عبور (اختیاری)"
              type="password"
              dir="ltr"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-label="رمز عبور"
            />
            <Text as="label" size="2">
              <Flex gap="1" align="center">
                <Checkbox checked={isStaff} onCheckedChange={(c) => setIsStaff(c === true)} /> کارمند
              </Flex>
            </Text>
            <Button type="submit">افزودن کاربر</Button>
          </Flex>
          {error && (
            <Text size="1" color="red" role="alert">
              {error}
            </Text>
          )}
        </form>
      </Card>
      <Card size="2">
        <DataTable def={asTableDef(usersTable)} refreshKey={refreshKey} />
      </Card>
    </Flex>
  );
}
