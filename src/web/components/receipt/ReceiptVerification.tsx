/**
 * A receipt's verification block: the QR code of its public verify page and the code in groups of four, printed
 * with the receipt (A4, one page) so its reader can check it. The QR's address is PUBLIC_URL's when the server has
 * one, else this page's own origin. The `qrcode` package is loaded only here, when a receipt is shown.
 */
import { Flex, Text } from '@radix-ui/themes';
import { Fragment, useEffect, useState } from 'react';
import { Latin } from '../Latin';

/** The absolute address a receipt's QR holds. */
export function verificationAddress(code: string, serverUrl: string | null): string {
  return serverUrl ?? `${window.location.origin}/verify/${encodeURIComponent(code)}`;
}

export function ReceiptVerification({ code, url }: { code: string; url: string | null }) {
  const address = verificationAddress(code, url);
  const [qr, setQr] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((QRCode) => QRCode.toString(address, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((svg) => {
        if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <Flex className="receipt-verification" gap="3" align="center" data-testid="receipt-verification">
      <div className="receipt-qr" aria-hidden={qr ? undefined : true}>
        {qr ? (
          <img src={qr} alt="کد QR بررسی رسید" width={120} height={120} data-testid="receipt-qr" />
        ) : failed ? null : (
          <span className="receipt-qr-placeholder" />
        )}
      </div>
      <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
        <Text size="2" weight="bold">
          کد بررسی رسید
        </Text>
        <Text size="4" weight="bold" className="receipt-code">
          <Latin testId="receipt-verification-code">
            {/* Broken, if at all, only after a group's hyphen: a line never starts with the hyphen (decision 027). */}
            {code.split('-').map((group, i, groups) => (
              <Fragment key={i}>
                {i > 0 && <wbr />}
                <span className="receipt-code-group">
                  {group}
                  {i < groups.length - 1 && '-'}
                </span>
              </Fragment>
            ))}
          </Latin>
        </Text>
        <Text size="1" color="gray">
          درستی این رسید را هر کسی می‌تواند با اسکن کد QR یا وارد کردن این کد در{' '}
          <Latin>{address.replace(/\/verify\/.*$/, '/verify')}</Latin> بررسی کند.
        </Text>
        <Text size="1" color="gray" lang="en" dir="ltr" as="p" style={{ margin: 0 }} data-latin="">
          Anyone can check this receipt by scanning the QR code or entering the code above at the address shown.
        </Text>
      </Flex>
    </Flex>
  );
}
