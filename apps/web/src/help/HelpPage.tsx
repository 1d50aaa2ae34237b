import { Download, LayoutDashboard, Mail, Search, Settings } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DesktopDownloads } from '../downloads/DesktopDownloads';
import { Page } from '../ui/Page';
import { FaqSection } from './FaqSection';
import { DESKTOP_DOWNLOAD_URL, searchHelp, type HelpLink } from './help-content';
import { useSupportEmail } from './use-support-email';

const LINK_CLASS =
  'inline-flex min-h-11 items-center gap-1.5 rounded-control font-semibold text-accent underline-offset-4 hover:underline';

function ArticleLink({ link, supportEmail }: { link: HelpLink; supportEmail: string }) {
  if (link.kind === 'route') {
    const Icon = link.to === '/settings' ? Settings : LayoutDashboard;
    return (
      <Link to={link.to} className={LINK_CLASS}>
        <Icon aria-hidden="true" className="size-4" />
        {link.label}
      </Link>
    );
  }
  if (link.kind === 'support') {
    return (
      <a href={`mailto:${supportEmail}`} className={LINK_CLASS}>
        <Mail aria-hidden="true" className="size-4" />
        {link.label}
      </a>
    );
  }
  return (
    <a href={DESKTOP_DOWNLOAD_URL} className={LINK_CLASS}>
      <Download aria-hidden="true" className="size-4" />
      {link.label}
    </a>
  );
}

/** DESIGN §6: the searchable help centre (version B) with the tabbed FAQ (version A) as its FAQ section. */
export function HelpPage() {
  const supportEmail = useSupportEmail();
  // `/help?q=govee`: other screens link straight to the articles they mean.
  const [searchParams] = useSearchParams();
  const [query, setQuery] = useState(() => searchParams.get('q') ?? '');
  const deferredQuery = useDeferredValue(query);
  const results = searchHelp(deferredQuery);
  const resultCount = results.reduce((sum, category) => sum + category.articles.length, 0);
  const searchId = useId();

  return (
    <Page title="Help" lead="Answers for setting up your lights, the broadcast delay and race weekends.">
      <div className="flex flex-col gap-14">
        <div className="flex flex-col gap-8">
          <div role="search" className="flex flex-col gap-2">
            <label htmlFor={searchId} className="font-semibold text-ink-100">
              Search help
            </label>
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-ink-300"
              />
              <input
                id={searchId}
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                placeholder="Try “delay”, “Hue” or “refund”"
                className="min-h-14 w-full rounded-card border border-ink-600 bg-ink-800 pr-4 pl-12 text-lg text-ink-100 placeholder:text-ink-300"
              />
            </div>
            <p role="status" className="text-caption text-ink-300">
              {deferredQuery.trim() === ''
                ? `${resultCount} articles in ${results.length} topics`
                : `${resultCount} ${resultCount === 1 ? 'result' : 'results'} for “${deferredQuery.trim()}”`}
            </p>
          </div>

          {results.length === 0 ? (
            <div className="rounded-card border border-ink-600 bg-ink-800 p-6">
              <p className="font-semibold text-ink-100">No articles match your search.</p>
              <p className="mt-1 text-ink-300">
                Try fewer words, browse the questions below, or{' '}
                <a href={`mailto:${supportEmail}`} className="text-accent underline underline-offset-4">
                  e-mail {supportEmail}
                </a>
                .
              </p>
            </div>
          ) : (
            <div className="grid gap-6 md:grid-cols-2">
              {results.map((category) => (
                <section
                  key={category.id}
                  aria-labelledby={`help-${category.id}`}
                  className="flex flex-col gap-4 rounded-card border border-ink-600 bg-ink-800 p-5 sm:p-6"
                >
                  <h2
                    id={`help-${category.id}`}
                    className="font-display text-2xl font-bold tracking-tight uppercase italic"
                  >
                    {category.title}
                  </h2>
                  {category.articles.map((article) => (
                    <article key={article.id} className="flex flex-col gap-1 border-t border-ink-700 pt-4">
                      <h3 className="font-semibold text-ink-100">{article.question}</h3>
                      <p className="text-ink-300">{article.answer}</p>
                      {article.links && (
                        <div className="flex flex-wrap gap-x-5">
                          {article.links.map((link) => (
                            <ArticleLink key={link.label} link={link} supportEmail={supportEmail} />
                          ))}
                        </div>
                      )}
                    </article>
                  ))}
                </section>
              ))}
            </div>
          )}

          <aside
            aria-label="Desktop app"
            className="flex flex-col items-start gap-4 rounded-card border border-accent/40 bg-accent/10 p-6 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <h2 className="font-display text-2xl font-bold tracking-tight uppercase italic">
                Flaglight desktop app
              </h2>
              <p className="text-ink-300">
                Runs in the background on Windows 10/11 or Linux, so the browser can close, and reaches lights
                on your home network.
              </p>
            </div>
            <DesktopDownloads variant="panel" />
          </aside>
        </div>

        <FaqSection supportEmail={supportEmail} />
      </div>
    </Page>
  );
}
