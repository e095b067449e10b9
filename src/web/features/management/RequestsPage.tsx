import requests from '../../../../schemas/tables/requests.json';
import { TablePage } from './TablePage';

export default function RequestsPage() {
  return <TablePage table={requests} />;
}
