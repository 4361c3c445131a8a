import {
  type LoaderFunctionArgs,
  type MetaArgs,
  Form,
  Link,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import { HelpArticle, useHelpArticleLabels } from "~/components/help/help-article";
import { ExternalLink } from "~/components/layout/external-link";
import { PageHeader } from "~/components/ui/page-header";
import { HELP_BROWSE } from "~/help/browse";
import { loadHelpCenter } from "~/help/help-center.server";
import { MAX_QUERY_LENGTH, type CategorySummary } from "~/help/view";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { shareMeta, titleMeta } from "~/lib/meta";
import type { ShellData } from "~/lib/shell";
import { buttonClass, SubmitButton } from "~/components/ui/button";

export function meta(args: MetaArgs<typeof loader>) {
  // Search result pages are endless variations of this one: keep them out of search engines.
  const searching = Boolean(args.loaderData?.query);
  return searching ? [...titleMeta(args), { name: "robots", content: "noindex" }] : shareMeta(args);
}

/**
 * Nothing personal without the app's cookies: the page caches may keep it; and a function of its
 * loaders' data alone: the render memo may too (server/html-caches.ts).
 */
export const handle = {
  i18n: ["help"],
  pageCache: true,
  renderMemo: true,
  query: ["q", "pregunta"],
};

export function loader({ url }: LoaderFunctionArgs) {
  return {
    title: getFixedT()("pages.helpCenter.title"),
    description: getFixedT("help")("description"),
    ...loadHelpCenter(url),
  };
}

const categoryId = (slug: string) => `categoria-${slug}`;

/**
 * The server cannot see a URL's #fragment, so a bare /help-center#<question> arrives closed;
 * with JavaScript, open the question it names (on load and whenever the fragment changes).
 * Without JavaScript, the question links carry ?pregunta=, which the server renders open.
 */
function useOpenQuestionFromHash() {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const target = document.getElementById(id);
    if (target instanceof HTMLDetailsElement && !target.open) {
      target.open = true;
      target.scrollIntoView({ block: "start" });
    }
  }, [hash]);
}

function CategoryLinks({
  categories,
  onThisPage,
}: {
  categories: CategorySummary[];
  onThisPage: boolean;
}) {
  const { t } = useTranslation("help");
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {categories.map((category) => {
        const href = onThisPage
          ? `#${categoryId(category.slug)}`
          : `/help-center#${categoryId(category.slug)}`;
        return (
          <li key={category.slug}>
            <Link
              to={href}
              className="block h-full rounded-lg border border-slate-200 p-4 hover:border-primary hover:bg-primary-soft"
            >
              <span className="block font-semibold text-primary-dark">{category.name}</span>
              <span className="mt-1 block text-sm text-slate-700">{category.description}</span>
              <span className="mt-2 block text-sm font-medium text-slate-700">
                {t("categories.count", { count: category.count })}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

export default function HelpCenterPage() {
  const { query, openSlug, search } = useLoaderData<typeof loader>();
  const { categories, sections } = HELP_BROWSE;
  const shell = useRouteLoaderData("root") as ShellData | undefined;
  const chatHref = shell?.links.chat;
  const { t } = useTranslation("help");
  const { t: tCommon } = useTranslation();
  const articleLabels = useHelpArticleLabels();
  const backToCategories = t("backToCategories");
  const navigation = useNavigation();
  const searching =
    navigation.state === "loading" &&
    navigation.location.pathname === "/help-center" &&
    navigation.location.search.includes("q=");
  useOpenQuestionFromHash();

  return (
    <>
      <PageHeader title={tCommon("pages.helpCenter.heading")}>
        <p>{t("intro")}</p>
      </PageHeader>

      <Form method="get" role="search" className="mb-10 max-w-2xl" data-testid="help-search">
        <label htmlFor="help-search-q" className="block font-semibold text-slate-900">
          {t("search.label")}
        </label>
        <p id="help-search-hint" className="text-sm text-slate-700">
          {t("search.hint")}
        </p>
        <div className="mt-2 flex gap-2">
          <input
            // A new search from a link (such as "see all questions") resets the box.
            key={query}
            id="help-search-q"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={MAX_QUERY_LENGTH}
            aria-describedby="help-search-hint"
            autoComplete="off"
            className="min-w-0 flex-1 rounded border border-slate-400 px-3 py-2 text-slate-900"
          />
          <SubmitButton width="auto" pending={searching} pendingLabel={t("search.pending")}>
            {t("search.submit")}
          </SubmitButton>
        </div>
      </Form>

      {search ? (
        <section aria-labelledby="help-results-heading" data-testid="help-results">
          <h2 id="help-results-heading" className="text-2xl font-bold text-slate-900">
            {search.count > 0 ? t("results.heading", { query }) : t("noResults.heading", { query })}
          </h2>
          <p role="status" className="mt-1 text-slate-700" data-testid="help-result-count">
            {t("results.count", { count: search.count })}
          </p>
          {search.partial ? <p className="mt-2 text-slate-700">{t("results.partial")}</p> : null}

          {search.count > 0 ? (
            <ol className="mt-6 space-y-3">
              {search.results.map((article) => (
                <li key={article.slug}>
                  <HelpArticle
                    article={article}
                    open={article.slug === openSlug}
                    labels={articleLabels}
                    chatHref={chatHref}
                    showCategory
                  />
                </li>
              ))}
            </ol>
          ) : (
            <div className="mt-4 space-y-6" data-testid="help-no-results">
              <p className="text-slate-800">{t("noResults.tips")}</p>
              <div className="rounded-lg border border-primary/40 bg-primary-soft p-5">
                <p className="text-slate-900">{t("noResults.chatIntro")}</p>
                {chatHref ? (
                  <ExternalLink href={chatHref} className={`mt-3 ${buttonClass()}`}>
                    {t("noResults.chat")}
                  </ExternalLink>
                ) : null}
              </div>
              <div>
                <p className="mb-3 text-slate-800">{t("noResults.browse")}</p>
                <CategoryLinks categories={categories} onThisPage={false} />
              </div>
            </div>
          )}

          <p className="mt-8">
            <Link
              to="/help-center"
              className="font-medium text-secondary underline underline-offset-2 hover:text-secondary-dark"
            >
              {t("search.showAll")}
            </Link>
          </p>
        </section>
      ) : (
        <>
          <nav aria-labelledby="help-categories-heading" id="categorias" className="scroll-mt-24">
            <h2 id="help-categories-heading" className="mb-4 text-2xl font-bold text-slate-900">
              {t("categories.heading")}
            </h2>
            <CategoryLinks categories={categories} onThisPage />
          </nav>

          {sections.map((section) => (
            <section
              key={section.slug}
              id={categoryId(section.slug)}
              aria-labelledby={`${categoryId(section.slug)}-titulo`}
              className="mt-12 scroll-mt-24"
              data-testid="help-category"
            >
              <h2
                id={`${categoryId(section.slug)}-titulo`}
                className="text-2xl font-bold text-slate-900"
              >
                {section.name}
              </h2>
              <p className="mt-1 text-slate-700">{section.description}</p>
              <ul className="mt-4 space-y-3">
                {section.articles.map((article) => (
                  <li key={article.slug}>
                    <HelpArticle
                      article={article}
                      open={article.slug === openSlug}
                      labels={articleLabels}
                      chatHref={chatHref}
                    />
                  </li>
                ))}
              </ul>
              <p className="mt-3 text-sm">
                <a
                  href="#categorias"
                  className="text-secondary underline underline-offset-2 hover:text-secondary-dark"
                >
                  {backToCategories}
                </a>
              </p>
            </section>
          ))}

          <aside
            aria-labelledby="help-contact-heading"
            className="mt-12 rounded-lg border border-primary/40 bg-primary-soft p-6"
          >
            <h2 id="help-contact-heading" className="text-xl font-bold text-slate-900">
              {t("contact.heading")}
            </h2>
            <p className="mt-1 text-slate-800">{t("contact.text")}</p>
            {chatHref ? (
              <ExternalLink href={chatHref} className={`mt-3 ${buttonClass()}`}>
                {t("contact.chat")}
              </ExternalLink>
            ) : null}
          </aside>
        </>
      )}
    </>
  );
}
