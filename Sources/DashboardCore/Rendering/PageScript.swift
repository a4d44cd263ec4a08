import Foundation

/// What a page can do in a browser with script (issue 29): filter and search the rows it holds,
/// by progressive enhancement. The page is complete without it; with it, a list page gets a
/// search box, bucket chips, a due window and a student and an assignment filter, and the grid a
/// search and "needs attention only". The state lives in the URL fragment.
///
/// Policy (docs/reports.md, "Filtering inside a page"):
/// - One script and one style per page, inline; the page's Content-Security-Policy allows
///   exactly them by their SHA-256 (`PageSecurity`), and nothing else: no network, no inline
///   handler, no style attribute.
/// - The script decides nothing the page does not say: each row carries what the command line's
///   filters decide (`HTMLRenderer.rowData`): its bucket, the fold of its title (when it differs
///   from the title in lower case), its student, its assignment, its due day counted from the
///   as-of's day in the course's zone, and whether that due had passed at the as-of. So "next 7
///   days" is the filter due within 7 days, "this week" the as-of's ISO week (Monday to Sunday)
///   in the course's zone, and the search the report's search words in the title, code or
///   course title; the typed words are folded by the browser (NFKD, marks removed, lower case).
/// - Typing replaces the history entry it started; every other change adds one, so Back steps
///   through the filters; Escape clears them.
package enum PageScript {
    /// The kinds of page that get the script.
    package enum Kind: Sendable {
        /// Rows of tasks in bucket sections, one course or several.
        case list
        /// Course cards.
        case grid
    }

    /// The script's words in `lexicon`'s language, as a JSON object; a counted phrase as its
    /// forms by CLDR plural category, which the script picks with the browser's
    /// `Intl.PluralRules` for the page's language (`{0}` the rows shown, `{n}` of how many).
    /// - Parameter buckets: the buckets a chip may name (the page's order).
    static func words(_ lexicon: Lexicon, buckets order: [Bucket] = Bucket.original) -> String {
        func text(_ phrase: Phrase) -> JSONValue { .string(lexicon(phrase)) }
        func forms(_ phrase: Phrase) -> JSONValue {
            .object(PluralRules.categories(of: lexicon.language).map { ($0.rawValue, .string(lexicon.form(phrase, $0))) })
        }
        let buckets: [(String, JSONValue)] = order.map { ($0.rawValue, .string(ReportWords.title($0, lexicon))) }
        return JSONValue.object([
            ("search", text(.jsSearch)), ("status", text(.jsStatus)), ("due", text(.jsDue)), ("any", text(.jsAny)),
            ("week", text(.jsWeek)), ("next7", text(.jsNext7)), ("overdueOnly", text(.jsOverdueOnly)), ("student", text(.jsStudent)),
            ("allStudents", text(.jsAllStudents)), ("assignment", text(.jsAssignment)), ("allAssignments", text(.jsAllAssignments)),
            ("clear", text(.jsClear)), ("filters", text(.jsFilters)), ("filterCourses", text(.jsFilterCourses)),
            ("attention", text(.jsAttention)), ("of", text(.jsOf)), ("bucket", .object(buckets)),
            ("tasksShown", forms(.jsTasksShown)), ("tasksAll", forms(.jsTasksAll)), ("coursesShown", forms(.jsCoursesShown)),
            ("coursesAll", forms(.jsCoursesAll)), ("pageShown", forms(.jsPageShown)), ("pageAll", forms(.jsPageAll)),
        ]).rendered(indent: 0)
    }

    /// The script in `lexicon`'s words. `states`: the page lists work handed in or excused
    /// (SPEC §11), so its chips offer those places too, in report order; a page without them
    /// gets the script it got before §11, byte for byte (and so the same hash).
    package static func script(_ lexicon: Lexicon, states: Bool = false) -> String {
        let order = states ? Bucket.inReportOrder : Bucket.original
        return template.replacingOccurrences(of: "@WORDS@", with: words(lexicon, buckets: order))
            .replacingOccurrences(of: "@BUCKETS@", with: "[" + order.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "]")
    }

    /// The script; `@WORDS@` stands for its words (`words`).
    static let template = """
        (() => {
          "use strict";
          const W = @WORDS@;
          const main = document.querySelector("main");
          if (!main) return;
          const plural = new Intl.PluralRules(document.documentElement.lang || "en");
          const say = (forms, n, total) => (forms[plural.select(total)] || forms.other).replace("{0}", n).replace("{n}", total);
          // As Foundation folds case, diacritics and width: NFKD, marks removed, lower case, and
          // the case foldings lower case leaves alone (ß is ss, final ς is σ).
          const fold = (text) => text.normalize("NFKD").replace(/\\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ");
          const el = (tag, props, ...children) => {
            const node = document.createElement(tag);
            for (const [key, value] of Object.entries(props || {})) {
              if (key === "text") node.textContent = value; else node.setAttribute(key, value);
            }
            node.append(...children);
            return node;
          };
          const cards = [...main.querySelectorAll("li.card")];
          const rows = [...main.querySelectorAll("tr[data-b]")];
          if (cards.length < 2 && rows.length < 2) return;
          const grid = cards.length > 0;
          const paged = main.querySelector(".pager") !== null;
          const form = el("form", { class: "filters", role: "search", "aria-label": grid ? W.filterCourses : W.filters });
          form.addEventListener("submit", (event) => event.preventDefault());
          const live = el("p", { role: "status", "aria-live": "polite", class: "shown" });
          const query = el("input", { type: "search", id: "f-q", autocomplete: "off" });
          form.append(el("label", { for: "f-q" }, W.search, query));
          const controls = { q: query };
          let items, tables = [], sections = [];
          if (grid) {
            items = cards.map((card) => ({ node: card, s: card.dataset.s, attention: card.classList.contains("attention") }));
            const need = el("input", { type: "checkbox", id: "f-need" });
            form.append(el("label", { class: "check", for: "f-need" }, need, W.attention));
            controls.need = need;
          } else {
            const tableOf = new Map();
            items = rows.map((row) => {
              const section = row.closest("section");
              const course = row.closest("[data-c]");
              const table = row.closest("table");
              if (!tableOf.has(table)) {
                const heading = table.parentElement.previousElementSibling;
                const count = heading && heading.querySelector(".count");
                tableOf.set(table, { node: table.parentElement, heading, count, text: count ? count.textContent : "", shown: 0, total: 0, section });
              }
              const d = row.dataset;
              return {
                node: row, b: d.b, s: d.s !== undefined ? d.s : row.querySelector("th").textContent.toLowerCase(),
                c: course ? course.dataset.c : "", wd: course ? Number(course.dataset.wd) : 0,
                st: d.st || "", a: d.a || "", title: row.querySelector("th").textContent,
                day: d.day !== undefined ? Number(d.day) : null, past: d.past !== undefined, table: tableOf.get(table),
              };
            });
            tables = [...tableOf.values()];
            for (const t of tables) t.total = items.filter((item) => item.table === t).length;
            sections = [...new Set(tables.map((t) => t.section).filter(Boolean))];
            const chips = el("fieldset", { class: "chips" }, el("legend", { text: W.status }));
            controls.chips = [];
            for (const bucket of @BUCKETS@) {
              if (!items.some((item) => item.b === bucket)) continue;
              const chip = el("button", { type: "button", class: "chip k-" + bucket, "aria-pressed": "false", "data-bucket": bucket, text: W.bucket[bucket] });
              chip.addEventListener("click", () => { chip.setAttribute("aria-pressed", chip.getAttribute("aria-pressed") === "true" ? "false" : "true"); changed(false); });
              controls.chips.push(chip);
              chips.append(chip);
            }
            form.append(chips);
            const due = el("select", { id: "f-w" });
            for (const [value, label] of [["", W.any], ["week", W.week], ["7", W.next7], ["overdue", W.overdueOnly]]) due.append(el("option", { value, text: label }));
            form.append(el("label", { for: "f-w" }, W.due, due));
            controls.w = due;
            const choice = (id, label, all, values) => {
              if (values.length < 2) return null;
              const select = el("select", { id }, el("option", { value: "", text: all }));
              for (const [value, text] of values) select.append(el("option", { value, text }));
              form.append(el("label", { for: id }, label, select));
              return select;
            };
            const students = [...new Set(items.map((item) => item.st).filter(Boolean))].sort();
            controls.st = choice("f-st", W.student, W.allStudents, students.map((s) => [s, s]));
            const assignments = new Map();
            for (const item of items) if (item.a && !assignments.has(item.a)) assignments.set(item.a, item.title + " (" + item.a + ")");
            controls.a = choice("f-a", W.assignment, W.allAssignments, [...assignments].sort((x, y) => x[1].localeCompare(y[1])));
          }
          const clear = el("button", { type: "button", id: "f-clear", text: W.clear });
          form.append(clear, live);
          main.insertBefore(form, grid ? cards[0].parentElement : [...main.children].find((child) => child.tagName === "SECTION"));

          const read = () => ({
            q: query.value, need: !!(controls.need && controls.need.checked),
            b: controls.chips ? controls.chips.filter((c) => c.getAttribute("aria-pressed") === "true").map((c) => c.dataset.bucket) : [],
            w: controls.w ? controls.w.value : "", st: controls.st ? controls.st.value : "", a: controls.a ? controls.a.value : "",
          });
          const write = (state) => {
            query.value = state.q;
            if (controls.need) controls.need.checked = state.need;
            if (controls.chips) for (const c of controls.chips) c.setAttribute("aria-pressed", state.b.includes(c.dataset.bucket) ? "true" : "false");
            for (const key of ["w", "st", "a"]) {
              const control = controls[key];
              if (control) control.value = [...control.options].some((o) => o.value === state[key]) ? state[key] : "";
            }
          };
          const fragment = (state) => {
            const p = new URLSearchParams();
            if (state.q.trim()) p.set("q", state.q.trim());
            if (state.b.length) p.set("b", state.b.join("."));
            for (const key of ["w", "st", "a"]) if (state[key]) p.set(key, state[key]);
            if (state.need) p.set("need", "1");
            const text = p.toString();
            return text ? "#" + text : "";
          };
          const parse = (hash) => {
            const text = hash.replace(/^#/, "");
            const p = new URLSearchParams(text.includes("=") ? text : "");
            return { q: p.get("q") || "", b: (p.get("b") || "").split(".").filter(Boolean), w: p.get("w") || "", st: p.get("st") || "", a: p.get("a") || "", need: p.get("need") === "1" };
          };
          const apply = (state) => {
            const words = fold(state.q).split(/\\s+/).filter(Boolean);
            const active = words.length > 0 || state.b.length > 0 || state.w !== "" || state.st !== "" || state.a !== "" || state.need;
            let shown = 0;
            const changes = [];
            for (const t of tables) t.shown = 0;
            for (const item of items) {
              let keep = words.every((w) => item.s.includes(w) || (item.c !== undefined && item.c.includes(w)));
              if (grid) {
                keep = keep && (!state.need || item.attention);
              } else if (keep) {
                keep = (state.b.length === 0 || state.b.includes(item.b)) && (!state.st || item.st === state.st) && (!state.a || item.a === state.a);
                if (keep && state.w === "week") keep = item.day !== null && item.day >= 1 - item.wd && item.day <= 7 - item.wd;
                if (keep && state.w === "7") keep = item.day !== null && !item.past && item.day <= 7;
                if (keep && state.w === "overdue") keep = item.b === "overdue";
              }
              if (item.node.hidden === keep) changes.push(item);
              item.keep = keep;
              if (keep) { shown += 1; if (item.table) item.table.shown += 1; }
            }
            show(changes, ++generation);
            for (const t of tables) {
              const hide = active && t.shown === 0;
              t.node.hidden = hide;
              if (t.heading) t.heading.hidden = hide;
              if (t.count) t.count.textContent = active ? "(" + W.of.replace("{0}", t.shown).replace("{1}", t.total) + ")" : t.text;
              const details = t.node.closest("details");
              if (details && active && t.shown > 0) details.open = true;
            }
            for (const section of sections) section.hidden = active && tables.every((t) => t.section !== section || t.shown === 0);
            const total = items.length;
            const [some, all] = grid ? [W.coursesShown, W.coursesAll] : paged ? [W.pageShown, W.pageAll] : [W.tasksShown, W.tasksAll];
            live.textContent = active ? say(some, shown, total) : say(all, total, total);
            clear.disabled = !active;
          };
          // Rows shown or hidden in slices, in page order, a frame each: the counts are right at
          // once and the top of the page follows the keystroke within a frame, however many
          // thousand rows come back after it (their layout is the cost, not the matching);
          // `aria-busy` on the main region until the last slice is in.
          let generation = 0;
          const show = (changes, mine) => {
            const slice = changes.splice(0, 400);
            for (const item of slice) item.node.hidden = !item.keep;
            if (changes.length > 0) {
              main.setAttribute("aria-busy", "true");
              requestAnimationFrame(() => { if (mine === generation) show(changes, mine); });
            } else {
              main.removeAttribute("aria-busy");
            }
          };
          let typing = false;
          const changed = (isTyping) => {
            const state = read();
            const hash = fragment(state);
            const url = location.pathname + location.search + hash;
            if (hash !== location.hash) {
              try {
                if (isTyping && typing) history.replaceState(null, "", url); else history.pushState(null, "", url);
              } catch (error) {
                location.hash = hash;
              }
              typing = isTyping;
            } else if (!isTyping) {
              typing = false;
            }
            apply(state);
          };
          const restore = () => { typing = false; const state = parse(location.hash); write(state); apply(read()); };
          query.addEventListener("input", () => changed(true));
          for (const key of ["need", "w", "st", "a"]) if (controls[key]) controls[key].addEventListener("change", () => changed(false));
          clear.addEventListener("click", () => { write(parse("")); changed(false); query.focus(); });
          form.addEventListener("keydown", (event) => {
            if (event.key === "Escape") { event.preventDefault(); write(parse("")); changed(false); }
            if (event.key === "Enter" && event.target === query) event.preventDefault();
          });
          window.addEventListener("popstate", restore);
          window.addEventListener("hashchange", restore);
          restore();
        })();
        """

    /// The style the script's controls need, after the page's own.
    static let style = """
        .filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-end; border: 1px solid var(--line); border-radius: 6px;
          padding: 0.5rem 0.75rem; margin: 1rem 0; background: var(--card); }
        .filters label { display: flex; flex-direction: column; gap: 0.1rem; font-size: 0.9rem; }
        .filters label.check { flex-direction: row; align-items: center; gap: 0.4rem; min-height: 2rem; }
        .filters input, .filters select, .filters button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted);
          border-radius: 4px; padding: 0.2rem 0.5rem; min-height: 2rem; }
        .filters input[type=search] { min-width: min(100%, 16rem); }
        .filters fieldset { border: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
        .filters legend { float: left; font-size: 0.9rem; margin-right: 0.3rem; }
        .filters .chip[aria-pressed=true] { background: var(--fg); color: var(--bg); border-color: var(--fg); }
        .filters .chip::before { content: ""; display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 0.35em; }
        .filters button:disabled { opacity: 0.6; }
        .filters :focus-visible { outline: 3px solid var(--completed); outline-offset: 1px; }
        .shown { flex-basis: 100%; margin: 0; font-weight: 600; }
        [hidden] { display: none !important; }
        @media print { .filters { display: none; } }
        """
}
