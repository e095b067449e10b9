import { Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { catalogueAtom, menuCategories } from '../lib/queries/catalogue';
import { LoadError } from './states/LoadError';

/** The service menu: educational, internationalExams, embassies and others (googleAds is not in it). */
export function CategoryCards() {
  const { data, isPending, isError, error, refetch, isFetching } = useAtomValue(catalogueAtom);
  if (isPending) {
    return (
      <div className="card-grid" role="status" aria-label="در حال بارگذاری خدمات">
        {[1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height="96px" />
        ))}
      </div>
    );
  }
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
  return (
    <div className="card-grid" data-testid="category-cards">
      {menuCategories(data).map((category) => (
        <Link key={category.key} to={category.to} className="card-link">
          <Card size="2" style={{ height: '100%' }}>
            <Flex gap="3" align="center">
              <img src={category.img} alt="" width={48} height={48} className="card-icon" />
              <Flex direction="column" gap="1">
                <Heading size="3">{category.menuTitle}</Heading>
                <Text size="2" color="gray">
                  {category.pageSubTitle}
                </Text>
              </Flex>
            </Flex>
          </Card>
        </Link>
      ))}
    </div>
  );
}
