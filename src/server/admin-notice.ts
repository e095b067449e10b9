/**
 * The generated administrator password, as a boxed block of plain text for the terminal. It is printed
 * outside the JSON log (where a person scrolls past it) and only on the start that created the account.
 */
export function adminPasswordNotice(username: string, password: string): string {
  const lines = [
    'Administrator account created. This password is shown only now:',
    '',
    `  username: ${username}`,
    `  password: ${password}`,
    '',
    'Log in at /login (password mode), or set ADMIN_PASSWORD to choose it yourself.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const border = '─'.repeat(width + 2);
  return ['', `┌${border}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${border}┘`, ''].join('\n');
}
