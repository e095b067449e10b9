import { Callout, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Navigate, useParams } from 'react-router-dom';
import { catalogueAtom } from './catalogue-query';

/** A desk: its title and description; the form engine renders its form (catalogue issue). */
export default function DeskPage() {
  const { desk: identifier } = useParams();
  const { data, isPending } = useAtomValue(catalogueAtom);
  if (isPending) return <Skeleton height="240px" />;
  const desk = data?.desks.find((d) => d.identifier === identifier);
  if (!desk) return <Navigate to="/errors" replace />;
  return (
    <Card size="3" data-testid="desk-page">
      <Flex direction="column" gap="3">
        <Flex gap="3" align="center">
          <img src={desk.img} alt="" width={48} height={48} />
          <Flex direction="column">
            <Heading size="5">{desk.title}</Heading>
            <Text size="2" color="gray" className="ltr">
              {desk.subTitle}
            </Text>
          </Flex>
        </Flex>
        <Text as="p" style={{ lineHeight: 1.9 }}>
          {desk.description}
        </Text>
        <Callout.Root color="orange">
          <Callout.Text>فرم ثبت درخواست این خدمت در دست ساخت است و به‌زودی فعال می‌شود.</Callout.Text>
        </Callout.Root>
      </Flex>
    </Card>
  );
}
