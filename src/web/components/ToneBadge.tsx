import { Badge, type BadgeProps } from '@radix-ui/themes';
import { readableBehindWhite } from '../../shared/color/contrast';

/**
 * A badge in a colour that comes with the data (a request state, a task type): white text on that colour, darkened
 * where needed so the text stays readable (WCAG AA) whatever colour the data carries.
 */
export function ToneBadge({ tone, style, ...props }: Omit<BadgeProps, 'color'> & { tone: string }) {
  return <Badge {...props} style={{ ...style, background: readableBehindWhite(tone), color: 'white' }} />;
}
