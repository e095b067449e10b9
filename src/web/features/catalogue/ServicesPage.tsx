import { Badge, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link, Navigate, useParams } from 'react-router-dom';
import { CategoryCards } from '../../components/CategoryCards';
import { LoadError } from '../../components/states/LoadError';
import { catalogueAtom, desksOf } from '../../lib/queries/catalogue';

/** /services lists the categories; /services/{category} lists that category's desks as cards. */
export default function ServicesPage() {
  const { category: key } = useParams();
  const { data, isPending, isError, error, refetch, isFetching } = useAtomValue(catalogueAtom);
  if (!key) {
    return (
      <Flex direction="column" gap="3">
        <Heading size="6">خدمات ارزپی</Heading>
        <CategoryCards />
      </Flex>
    );
  }
  if (isPending) return <Skeleton height="200px" />;
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت فهرست خدمات ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  const category = data?.categories.find((c) => c.key === key);
  if (!category) return <Navigate to="/errors" replace />;
  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="1">
        <Heading size="6">{category.pageTitle}</Heading>
        <Text color="gray">{category.pageSubTitle}</Text>
        <Text as="p" mt="2" style={{ lineHeight: 1.9 }}>
          {category.description}
        </Text>
      </Flex>
      <div className="card-grid" data-testid="desk-cards">
        {desksOf(data, key).map((desk) => (
          <Link
            key={desk.identifier}
            to={desk.underConstruction ? `/under-construction-desks/${desk.identifier}` : desk.to}
            className="card-link"
          >
            <Card size="2" style={{ height: '100%' }}>
              <Flex direction="column" gap="2">
                <Flex gap="3" align="center">
                  <img src={desk.img} alt="" width={40} height={40} className="card-icon" />
                  <Flex direction="column">
                    <Heading size="3">{desk.title}</Heading>
                    <Text size="1" color="gray" className="ltr">
                      {desk.subTitle}
                    </Text>
                  </Flex>
                </Flex>
                <Text size="2">{desk.description}</Text>
                {desk.underConstruction && <Badge color="orange">به‌زودی</Badge>}
              </Flex>
            </Card>
          </Link>
        ))}
      </div>
    </Flex>
  );
}
