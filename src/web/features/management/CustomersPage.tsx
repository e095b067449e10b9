import customers from '../../../../schemas/tables/customers.json';
import { TablePage } from './TablePage';

export default function CustomersPage() {
  return <TablePage table={customers} />;
}
