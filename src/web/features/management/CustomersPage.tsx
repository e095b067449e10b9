import { Card, Flex, Heading, Link as RadixLink } from '@radix-ui/themes';
import { Link } from 'react-router-dom';
import customers from '../../../../schemas/tables/customers.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { pathOf } from '../../lib/routes';

const def = asTableDef(customers);

/** Customers with their wallet and reserved amount; each opens its wallet page (/customer-wallets/{id}). */
export default function CustomersPage() {
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{def.title}</Heading>
      <Card size="2">
        <DataTable
          def={def}
          actions={(row) => (
            <RadixLink asChild size="2">
              <Link to={pathOf('customerWallet', { id: String(row.id) })} data-testid="customer-wallet-link">
                موجودی و تراکنش‌ها
              </Link>
            </RadixLink>
          )}
        />
      </Card>
    </Flex>
  );
}
