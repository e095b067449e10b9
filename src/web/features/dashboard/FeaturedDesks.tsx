import { Button, Flex, Heading, Skeleton } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { catalogueAtom } from '../../lib/queries/catalogue';

/**
 * The desks the catalogue marks `featured` (TOEFL, IELTS, …) as one-tap shortcuts to their forms on the home page,
 * so the most asked-for payments start from the first screen.
 */
export function FeaturedDesks() {
  const { data, isPending, isError } = useAtomValue(catalogueAtom);
  if (isError) return null; // the category cards below say so, with a retry
  const desks = data?.desks.filter((d) => d.featured && !d.underConstruction) ?? [];
  if (!isPending && desks.length === 0) return null;
  return (
    <section aria-labelledby="featured-heading" data-testid="featured-desks">
      <Heading id="featured-heading" size="4" mb="2">
        پرداخت سریع
      </Heading>
      <Flex gap="2" wrap="wrap">
        {isPending
          ? [1, 2, 3, 4].map((i) => <Skeleton key={i} width="110px" height="40px" />)
          : desks.map((desk) => (
              <Button key={desk.identifier} asChild size="3" variant="soft">
                <Link to={desk.to} data-testid={`featured-${desk.identifier}`}>
                  <img src={desk.img} alt="" width={20} height={20} />
                  {desk.title}
                </Link>
              </Button>
            ))}
      </Flex>
    </section>
  );
}
