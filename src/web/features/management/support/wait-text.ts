import { formatNumber } from '../../../../shared/format';

/** A duration in Persian words of days, hours or minutes ('۲ ساعت و ۵ دقیقه'). */
export function durationText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return `${formatNumber(days)} روز${hours > 0 ? ` و ${formatNumber(hours)} ساعت` : ''}`;
  if (hours > 0) return `${formatNumber(hours)} ساعت${minutes > 0 ? ` و ${formatNumber(minutes)} دقیقه` : ''}`;
  return minutes > 0 ? `${formatNumber(minutes)} دقیقه` : 'کمتر از یک دقیقه';
}

/** A wait's colour: red past a day, orange past an hour. */
export const waitColor = (seconds: number) => (seconds >= 86_400 ? 'red' : seconds >= 3_600 ? 'orange' : 'gray');
