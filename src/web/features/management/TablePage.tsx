import { Card, Flex, Heading } from '@radix-ui/themes';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';

/** A management page that is one table from schemas/tables. */
export function TablePage({ table }: { table: unknown }) {
  const def = asTableDef(table);
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{def.title}</Heading>
      <Card size="2">
        <DataTable def={def} />
      </Card>
    </Flex>
  );
}
