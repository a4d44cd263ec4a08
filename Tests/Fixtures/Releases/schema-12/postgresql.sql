--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: dashboard_audit_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_audit_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT pg_has_role(current_user, (SELECT tableowner FROM pg_tables WHERE schemaname = TG_TABLE_SCHEMA AND tablename = TG_TABLE_NAME), 'USAGE') THEN
        RAISE EXCEPTION 'the audit log is append-only: % is refused to role %', TG_OP, current_user USING ERRCODE = '42501';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_batches_referred(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_batches_referred() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM old_rows o
               WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.batch_id = o.batch_id)
                 AND EXISTS (SELECT 1 FROM tasks t
                             WHERE t.deleted_batch = o.batch_id OR t.changed_batch = o.batch_id OR t.created_batch = o.batch_id)) THEN
        RAISE EXCEPTION 'update or delete on table "batches" violates the references of "tasks"' USING ERRCODE = '23503';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_bucket_written(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_bucket_written() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF dashboard_triggers_on() THEN UPDATE data_marks SET writes = writes + 1 WHERE id = 1; END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_courses_referred(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_courses_referred() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM old_rows o JOIN tasks t ON t.course_id = o.course_id
               WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id = o.course_id)) THEN
        RAISE EXCEPTION 'update or delete on table "courses" violates the references of "tasks"' USING ERRCODE = '23503';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_courses_updated(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_courses_updated() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF dashboard_triggers_on() AND (
        EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.course_id = o.course_id
                WHERE (o.code, o.title, o.term, o.teacher, o.timezone, o.teacher_email, o.language, o.deleted_batch)
                      IS DISTINCT FROM (n.code, n.title, n.term, n.teacher, n.timezone, n.teacher_email, n.language, n.deleted_batch))
        OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM new_rows)) THEN
        UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_data_written(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_data_written() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF dashboard_triggers_on() THEN UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1; END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_number_new_rows(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_number_new_rows() RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
    SELECT setval(pg_get_serial_sequence('batches', 'batch_id'), coalesce((SELECT max(batch_id) FROM batches), 0) + 1, false);
    SELECT setval(pg_get_serial_sequence('audit', 'entry_id'), coalesce((SELECT max(entry_id) FROM audit), 0) + 1, false);
    SELECT setval(pg_get_serial_sequence('settings_log', 'entry_id'), coalesce((SELECT max(entry_id) FROM settings_log), 0) + 1, false);
$$;


--
-- Name: dashboard_tasks_deleted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_deleted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
    UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
    UPDATE course_buckets c SET tasks = c.tasks - d.n
    FROM (SELECT course_id, bucket, count(*) AS n FROM old_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket) d
    WHERE c.course_id = d.course_id AND c.bucket = d.bucket;
    RETURN NULL;
END $$;


--
-- Name: dashboard_tasks_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_inserted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
    UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
    INSERT INTO course_buckets (course_id, bucket, tasks)
    SELECT course_id, bucket, count(*) FROM new_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket
    ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = course_buckets.tasks + excluded.tasks;
    RETURN NULL;
END $$;


--
-- Name: dashboard_tasks_print_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_print_inserted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    UPDATE tasks SET print = NULL WHERE task_id = NEW.task_id;
    RETURN NULL;
END $$;


--
-- Name: dashboard_tasks_print_stale(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_print_stale() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.print := NULL;
    RETURN NEW;
END $$;


--
-- Name: dashboard_tasks_refer(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_refer() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
DECLARE missing text;
BEGIN
    SELECT 'course ' || n.course_id INTO missing FROM new_rows n
    WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id = n.course_id) LIMIT 1;
    IF missing IS NULL THEN
        SELECT 'batch ' || b.id INTO missing
        FROM (SELECT deleted_batch AS id FROM new_rows UNION SELECT changed_batch FROM new_rows UNION SELECT created_batch FROM new_rows) b
        WHERE b.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM batches x WHERE x.batch_id = b.id) LIMIT 1;
    END IF;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'insert or update on table "tasks" violates its references: % does not exist', missing USING ERRCODE = '23503';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: dashboard_tasks_updated(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_tasks_updated() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO '$user', 'public'
    AS $$
BEGIN
    IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
    IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.task_id = o.task_id
               WHERE (o.course_id, o.title, o.student_id, o.due, o.priority, o.completed, o.assignment_id, o.deleted_batch, o.created_batch)
                     IS DISTINCT FROM (n.course_id, n.title, n.student_id, n.due, n.priority, n.completed, n.assignment_id, n.deleted_batch, n.created_batch))
       OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM new_rows) THEN
        UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
    ELSIF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.task_id = o.task_id WHERE o.bucket IS DISTINCT FROM n.bucket) THEN
        UPDATE data_marks SET writes = writes + 1 WHERE id = 1;
    END IF;
    UPDATE course_buckets c SET tasks = c.tasks - d.n
    FROM (SELECT course_id, bucket, count(*) AS n FROM old_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket) d
    WHERE c.course_id = d.course_id AND c.bucket = d.bucket;
    INSERT INTO course_buckets (course_id, bucket, tasks)
    SELECT course_id, bucket, count(*) FROM new_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket
    ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = course_buckets.tasks + excluded.tasks;
    RETURN NULL;
END $$;


--
-- Name: dashboard_triggers_on(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dashboard_triggers_on() RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(current_setting('dashboard.triggers', true), '') <> 'off'
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: audit; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit (
    entry_id bigint NOT NULL,
    recorded_at text NOT NULL COLLATE pg_catalog."C",
    as_of text NOT NULL COLLATE pg_catalog."C",
    task_id text NOT NULL COLLATE pg_catalog."C",
    course_id text NOT NULL COLLATE pg_catalog."C",
    from_bucket text NOT NULL COLLATE pg_catalog."C",
    to_bucket text NOT NULL COLLATE pg_catalog."C",
    cause text NOT NULL COLLATE pg_catalog."C",
    actor text NOT NULL COLLATE pg_catalog."C",
    reason text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    batch_id bigint,
    reverts_entry bigint,
    conflict bigint DEFAULT 0 NOT NULL,
    override_until text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    override_before bigint,
    group_id bigint,
    CONSTRAINT audit_cause_check CHECK ((cause = ANY (ARRAY['time'::text, 'import'::text, 'override'::text, 'delete'::text, 'restore'::text, 'revert'::text]))),
    CONSTRAINT audit_conflict_check CHECK ((conflict = ANY (ARRAY[(0)::bigint, (1)::bigint])))
);


--
-- Name: audit_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.audit ALTER COLUMN entry_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.audit_entry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: batch_births; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batch_births (
    batch_id bigint NOT NULL,
    bucket text NOT NULL COLLATE pg_catalog."C",
    tasks bigint NOT NULL
);


--
-- Name: batch_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batch_counts (
    batch_id bigint NOT NULL,
    kind text NOT NULL COLLATE pg_catalog."C",
    read bigint DEFAULT 0 NOT NULL,
    inserted bigint DEFAULT 0 NOT NULL,
    updated bigint DEFAULT 0 NOT NULL,
    unchanged bigint DEFAULT 0 NOT NULL,
    deleted bigint DEFAULT 0 NOT NULL,
    rejected bigint DEFAULT 0 NOT NULL,
    warnings bigint DEFAULT 0 NOT NULL,
    CONSTRAINT batch_counts_kind_check CHECK ((kind = ANY (ARRAY['courses'::text, 'tasks'::text])))
);


--
-- Name: batch_files; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batch_files (
    batch_id bigint NOT NULL,
    "position" bigint NOT NULL,
    path text NOT NULL COLLATE pg_catalog."C",
    kind text COLLATE pg_catalog."C",
    size bigint NOT NULL,
    sha256 text NOT NULL COLLATE pg_catalog."C",
    rows bigint DEFAULT 0 NOT NULL
);


--
-- Name: batch_problems; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batch_problems (
    batch_id bigint NOT NULL,
    seq bigint NOT NULL,
    severity text NOT NULL COLLATE pg_catalog."C",
    code text NOT NULL COLLATE pg_catalog."C",
    frictionless_type text NOT NULL COLLATE pg_catalog."C",
    file text NOT NULL COLLATE pg_catalog."C",
    line bigint NOT NULL,
    "row" bigint NOT NULL,
    column_name text NOT NULL COLLATE pg_catalog."C",
    value text NOT NULL COLLATE pg_catalog."C",
    message text NOT NULL COLLATE pg_catalog."C",
    hint text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT batch_problems_severity_check CHECK ((severity = ANY (ARRAY['error'::text, 'warning'::text])))
);


--
-- Name: batches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batches (
    batch_id bigint NOT NULL,
    command text NOT NULL COLLATE pg_catalog."C",
    started_at text NOT NULL COLLATE pg_catalog."C",
    finished_at text COLLATE pg_catalog."C",
    as_of text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL COLLATE pg_catalog."C",
    status text NOT NULL COLLATE pg_catalog."C",
    reason text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    max_delete text DEFAULT '10%'::text NOT NULL COLLATE pg_catalog."C",
    options text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    actor text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    approved_from bigint,
    reverts_batch bigint,
    data_mark bigint,
    schema_mark bigint,
    plan_options text COLLATE pg_catalog."C",
    CONSTRAINT batches_mode_check CHECK ((mode = ANY (ARRAY['merge'::text, 'sync'::text]))),
    CONSTRAINT batches_status_check CHECK ((status = ANY (ARRAY['running'::text, 'committed'::text, 'failed'::text, 'dry_run'::text, 'held'::text, 'approved'::text, 'discarded'::text, 'reverted'::text])))
);


--
-- Name: batches_batch_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.batches ALTER COLUMN batch_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.batches_batch_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: course_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.course_buckets (
    course_id text NOT NULL COLLATE pg_catalog."C",
    bucket text NOT NULL COLLATE pg_catalog."C",
    tasks bigint NOT NULL
);


--
-- Name: course_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.course_history (
    batch_id bigint NOT NULL,
    course_id text NOT NULL COLLATE pg_catalog."C",
    change text NOT NULL COLLATE pg_catalog."C",
    existed bigint NOT NULL,
    code text COLLATE pg_catalog."C",
    title text COLLATE pg_catalog."C",
    term text COLLATE pg_catalog."C",
    teacher text COLLATE pg_catalog."C",
    timezone text COLLATE pg_catalog."C",
    deleted_batch bigint,
    changed_batch bigint,
    teacher_email text COLLATE pg_catalog."C",
    language text COLLATE pg_catalog."C",
    CONSTRAINT course_history_change_check CHECK ((change = ANY (ARRAY['insert'::text, 'update'::text, 'delete'::text, 'restore'::text])))
);


--
-- Name: courses; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.courses (
    course_id text NOT NULL COLLATE pg_catalog."C",
    code text NOT NULL COLLATE pg_catalog."C",
    title text NOT NULL COLLATE pg_catalog."C",
    term text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    teacher text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    timezone text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    deleted_batch bigint,
    changed_batch bigint,
    teacher_email text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    language text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: dashboard_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dashboard_schema (
    id bigint NOT NULL,
    version bigint NOT NULL,
    application text NOT NULL,
    CONSTRAINT dashboard_schema_id_check CHECK ((id = 1))
);


--
-- Name: data_marks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.data_marks (
    id bigint NOT NULL,
    data bigint NOT NULL,
    writes bigint NOT NULL,
    trusted bigint NOT NULL,
    clean bigint NOT NULL,
    CONSTRAINT data_marks_clean_check CHECK ((clean = ANY (ARRAY[(0)::bigint, (1)::bigint]))),
    CONSTRAINT data_marks_id_check CHECK ((id = 1))
);


--
-- Name: held_courses; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.held_courses (
    batch_id bigint NOT NULL,
    course_id text NOT NULL COLLATE pg_catalog."C",
    code text NOT NULL COLLATE pg_catalog."C",
    title text NOT NULL COLLATE pg_catalog."C",
    term text NOT NULL COLLATE pg_catalog."C",
    teacher text NOT NULL COLLATE pg_catalog."C",
    timezone text NOT NULL COLLATE pg_catalog."C",
    file text NOT NULL COLLATE pg_catalog."C",
    line bigint NOT NULL,
    teacher_email text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    language text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: held_rejected; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.held_rejected (
    batch_id bigint NOT NULL,
    kind text NOT NULL COLLATE pg_catalog."C",
    id text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT held_rejected_kind_check CHECK ((kind = ANY (ARRAY['courses'::text, 'tasks'::text])))
);


--
-- Name: held_tasks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.held_tasks (
    batch_id bigint NOT NULL,
    task_id text NOT NULL COLLATE pg_catalog."C",
    course_id text NOT NULL COLLATE pg_catalog."C",
    title text NOT NULL COLLATE pg_catalog."C",
    student_id text NOT NULL COLLATE pg_catalog."C",
    due text NOT NULL COLLATE pg_catalog."C",
    priority text NOT NULL COLLATE pg_catalog."C",
    completed bigint NOT NULL,
    file text NOT NULL COLLATE pg_catalog."C",
    line bigint NOT NULL,
    assignment_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: overrides; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.overrides (
    task_id text NOT NULL COLLATE pg_catalog."C",
    entry_id bigint NOT NULL,
    bucket text NOT NULL COLLATE pg_catalog."C",
    until text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    reason text NOT NULL COLLATE pg_catalog."C",
    actor text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT overrides_bucket_check CHECK ((bucket = ANY (ARRAY['overdue'::text, 'today'::text, 'upcoming'::text, 'undated'::text, 'completed'::text])))
);


--
-- Name: settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.settings (
    key text NOT NULL COLLATE pg_catalog."C",
    value text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: settings_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.settings_log (
    entry_id bigint NOT NULL,
    recorded_at text NOT NULL COLLATE pg_catalog."C",
    key text NOT NULL COLLATE pg_catalog."C",
    old_value text COLLATE pg_catalog."C",
    new_value text NOT NULL COLLATE pg_catalog."C",
    actor text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    batch_id bigint
);


--
-- Name: settings_log_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.settings_log ALTER COLUMN entry_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.settings_log_entry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: task_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.task_history (
    batch_id bigint NOT NULL,
    task_id text NOT NULL COLLATE pg_catalog."C",
    change text NOT NULL COLLATE pg_catalog."C",
    existed bigint NOT NULL,
    course_id text COLLATE pg_catalog."C",
    title text COLLATE pg_catalog."C",
    student_id text COLLATE pg_catalog."C",
    due text COLLATE pg_catalog."C",
    priority text COLLATE pg_catalog."C",
    completed bigint,
    deleted_batch bigint,
    changed_batch bigint,
    assignment_id text COLLATE pg_catalog."C",
    CONSTRAINT task_history_change_check CHECK ((change = ANY (ARRAY['insert'::text, 'update'::text, 'delete'::text, 'restore'::text])))
);


--
-- Name: tasks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tasks (
    task_id text NOT NULL COLLATE pg_catalog."C",
    course_id text NOT NULL COLLATE pg_catalog."C",
    title text NOT NULL COLLATE pg_catalog."C",
    student_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    due text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    priority text DEFAULT 'normal'::text NOT NULL COLLATE pg_catalog."C",
    completed bigint DEFAULT 0 NOT NULL,
    deleted_batch bigint,
    changed_batch bigint,
    bucket text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    assignment_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    created_batch bigint,
    print bytea,
    slot bigint,
    CONSTRAINT tasks_completed_check CHECK ((completed = ANY (ARRAY[(0)::bigint, (1)::bigint]))),
    CONSTRAINT tasks_priority_check CHECK ((priority = ANY (ARRAY['low'::text, 'normal'::text, 'high'::text])))
);


--
-- Data for Name: audit; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.audit (entry_id, recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason, batch_id, reverts_entry, conflict, override_until, override_before, group_id) FROM stdin;
1	2026-12-05T08:44:03Z	2026-11-29T09:00:00Z	T1003	bio-101-nyc	overdue	upcoming	override	fixture	extension agreed	\N	\N	0		\N	\N
2	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1004	bio-101-nyc	completed	deleted	delete	root		2	\N	0		\N	\N
3	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1007	bio-101-nyc	today	overdue	time	root		\N	\N	0		\N	\N
4	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1051	hst-220-syd	today	overdue	time	root		\N	\N	0		\N	\N
5	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1078	mat-210-ber	today	overdue	time	root		\N	\N	0		\N	\N
6	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1083	mat-210-ber	today	overdue	time	root		\N	\N	0		\N	\N
7	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	T1093	mat-210-ber	upcoming	today	time	root		\N	\N	0		\N	\N
\.


--
-- Data for Name: batch_births; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.batch_births (batch_id, bucket, tasks) FROM stdin;
1	completed	44
1	overdue	10
1	today	6
1	undated	6
1	upcoming	32
2	upcoming	1
\.


--
-- Data for Name: batch_counts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.batch_counts (batch_id, kind, read, inserted, updated, unchanged, deleted, rejected, warnings) FROM stdin;
1	courses	5	5	0	0	0	0	1
1	tasks	106	98	0	0	0	7	2
2	courses	5	0	0	5	0	0	1
2	tasks	106	1	0	97	1	7	2
\.


--
-- Data for Name: batch_files; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.batch_files (batch_id, "position", path, kind, size, sha256, rows) FROM stdin;
1	1	/tmp/tmp.a0GFIYtCNt/courses.csv	courses	553	9c8acc1027b1471912940754b1e22922917666ecac0d011d6a7c99eafd947f97	5
1	2	/tmp/tmp.a0GFIYtCNt/tasks.csv	tasks	8072	b289a0030c2421a98893de6eb5952b1c477cf70fe6259a0ea1d2c21d1d464a13	106
2	1	/tmp/tmp.a0GFIYtCNt/night2/courses.csv	courses	553	9c8acc1027b1471912940754b1e22922917666ecac0d011d6a7c99eafd947f97	5
2	2	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	tasks	8046	1963d23078e18ed68f1ecd637ba21352d85d51edf564e68dcbab96e9445d74f6	106
\.


--
-- Data for Name: batch_problems; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.batch_problems (batch_id, seq, severity, code, frictionless_type, file, line, "row", column_name, value, message, hint) FROM stdin;
1	1	warning	unknown_column	extra-label	/tmp/tmp.a0GFIYtCNt/courses.csv	1	0	Room		column "Room" is not used by a courses file and was ignored	nothing to do if that is expected; rename it if it should be one of: course_id, title, code, term, teacher, timezone, teacher_email, language
1	2	error	unknown_course	foreign-key	/tmp/tmp.a0GFIYtCNt/tasks.csv	58	56	course_id	chm-300	course "chm-300" is not in the database or in this import	import the course first (or in the same run), or correct the course_id
1	3	error	invalid_date	type-error	/tmp/tmp.a0GFIYtCNt/tasks.csv	65	63	due	2026-02-30	"2026-02-30" is not a date: month 2 of 2026 has 28 days	use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant
1	4	warning	blank_row	blank-row	/tmp/tmp.a0GFIYtCNt/tasks.csv	70	68			line 70 is blank and was skipped	remove blank lines from the export, or ignore this warning
1	5	error	ambiguous_date	type-error	/tmp/tmp.a0GFIYtCNt/tasks.csv	74	72	due	12/04/2026	"12/04/2026" could be month/day or day/month	pass --date-order mdy or --date-order dmy, or write the date as YYYY-MM-DD
1	6	error	invalid_priority	type-error	/tmp/tmp.a0GFIYtCNt/tasks.csv	82	80	priority	asap	"asap" is not a priority	use low, normal or high (also: hi, urgent, med, medium, lo, or empty for normal)
1	7	error	invalid_boolean	type-error	/tmp/tmp.a0GFIYtCNt/tasks.csv	89	87	completed	maybe	"maybe" is not a yes/no value	use true/false, yes/no, y/n, 1/0, x/empty, done/open or ✓
1	8	error	implausible_date	constraint-error	/tmp/tmp.a0GFIYtCNt/tasks.csv	96	94	due	3026-12-01	the year 3026 is outside 1900–2200	check the year; dates outside 1900–2200 are treated as typing errors
1	9	error	duplicate_id	primary-key	/tmp/tmp.a0GFIYtCNt/tasks.csv	101	99	task_id	T1010	task_id "T1010" was already used on line 11 with different values; the first row was kept	give each row its own task_id, or remove the outdated row
1	10	warning	duplicate_row	duplicate-row	/tmp/tmp.a0GFIYtCNt/tasks.csv	104	102	task_id	T1020	this row repeats line 21 exactly and was imported once	remove the repeated row from the export, or ignore this warning
2	1	warning	unknown_column	extra-label	/tmp/tmp.a0GFIYtCNt/night2/courses.csv	1	0	Room		column "Room" is not used by a courses file and was ignored	nothing to do if that is expected; rename it if it should be one of: course_id, title, code, term, teacher, timezone, teacher_email, language
2	2	error	unknown_course	foreign-key	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	57	55	course_id	chm-300	course "chm-300" is not in the database or in this import	import the course first (or in the same run), or correct the course_id
2	3	error	invalid_date	type-error	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	64	62	due	2026-02-30	"2026-02-30" is not a date: month 2 of 2026 has 28 days	use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant
2	4	warning	blank_row	blank-row	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	69	67			line 69 is blank and was skipped	remove blank lines from the export, or ignore this warning
2	5	error	ambiguous_date	type-error	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	73	71	due	12/04/2026	"12/04/2026" could be month/day or day/month	pass --date-order mdy or --date-order dmy, or write the date as YYYY-MM-DD
2	6	error	invalid_priority	type-error	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	81	79	priority	asap	"asap" is not a priority	use low, normal or high (also: hi, urgent, med, medium, lo, or empty for normal)
2	7	error	invalid_boolean	type-error	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	88	86	completed	maybe	"maybe" is not a yes/no value	use true/false, yes/no, y/n, 1/0, x/empty, done/open or ✓
2	8	error	implausible_date	constraint-error	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	95	93	due	3026-12-01	the year 3026 is outside 1900–2200	check the year; dates outside 1900–2200 are treated as typing errors
2	9	error	duplicate_id	primary-key	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	100	98	task_id	T1010	task_id "T1010" was already used on line 10 with different values; the first row was kept	give each row its own task_id, or remove the outdated row
2	10	warning	duplicate_row	duplicate-row	/tmp/tmp.a0GFIYtCNt/night2/tasks.csv	103	101	task_id	T1020	this row repeats line 20 exactly and was imported once	remove the repeated row from the export, or ignore this warning
\.


--
-- Data for Name: batches; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.batches (batch_id, command, started_at, finished_at, as_of, mode, status, reason, max_delete, options, actor, approved_from, reverts_batch, data_mark, schema_mark, plan_options) FROM stdin;
1	import	2026-12-05T08:44:02Z	2026-12-05T08:44:03Z	2026-11-29T08:00:00Z	merge	committed		10%		root	\N	\N	1	-1555100245	mode=merge;max_delete=10%;strict=false;override_manual=false;encoding=utf-8;delimiter=;date_order=
2	import	2026-12-05T08:44:03Z	2026-12-05T08:44:03Z	2026-11-30T02:00:00Z	sync	committed		10%		root	\N	\N	2	-1555100245	mode=sync;max_delete=10%;strict=false;override_manual=false;encoding=utf-8;delimiter=;date_order=
\.


--
-- Data for Name: course_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.course_buckets (course_id, bucket, tasks) FROM stdin;
bio-101-nyc	undated	1
eng-105	completed	10
eng-105	overdue	2
eng-105	upcoming	9
hst-220-syd	completed	7
hst-220-syd	undated	2
hst-220-syd	upcoming	7
jpn-150-tyo	completed	8
jpn-150-tyo	overdue	2
jpn-150-tyo	undated	2
jpn-150-tyo	upcoming	7
mat-210-ber	completed	10
mat-210-ber	undated	1
bio-101-nyc	completed	8
bio-101-nyc	upcoming	6
bio-101-nyc	overdue	3
bio-101-nyc	today	2
hst-220-syd	overdue	3
hst-220-syd	today	0
mat-210-ber	overdue	3
mat-210-ber	today	1
mat-210-ber	upcoming	4
\.


--
-- Data for Name: course_history; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.course_history (batch_id, course_id, change, existed, code, title, term, teacher, timezone, deleted_batch, changed_batch, teacher_email, language) FROM stdin;
1	mat-210-ber	insert	0	\N	\N	\N	\N	\N	\N	\N	\N	\N
1	bio-101-nyc	insert	0	\N	\N	\N	\N	\N	\N	\N	\N	\N
1	hst-220-syd	insert	0	\N	\N	\N	\N	\N	\N	\N	\N	\N
1	eng-105	insert	0	\N	\N	\N	\N	\N	\N	\N	\N	\N
1	jpn-150-tyo	insert	0	\N	\N	\N	\N	\N	\N	\N	\N	\N
\.


--
-- Data for Name: courses; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.courses (course_id, code, title, term, teacher, timezone, deleted_batch, changed_batch, teacher_email, language) FROM stdin;
mat-210-ber	MAT 210	Lineare Algebra für Ingenieure	Wintersemester 2026/27	Prof. Jürgen Müller	Europe/Berlin	\N	1		
bio-101-nyc	BIO 101	Introduction to Biology	Fall 2026	Dr. Maria Alvarez	America/New_York	\N	1		
hst-220-syd	HIST 220	Australian History since 1788	Semester 2 2026	Ms. Olivia Nguyen	Australia/Sydney	\N	1		
eng-105	ENG 105	Academic Writing	Fall 2026	Mr. David Okafor		\N	1		
jpn-150-tyo	JPN 150	日本語 I (Japanese I)	2026 Autumn	田中 美咲 (Tanaka Misaki)	Asia/Tokyo	\N	1		
\.


--
-- Data for Name: dashboard_schema; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.dashboard_schema (id, version, application) FROM stdin;
1	11	dashboard
\.


--
-- Data for Name: data_marks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.data_marks (id, data, writes, trusted, clean) FROM stdin;
1	2	4	4	1
\.


--
-- Data for Name: held_courses; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.held_courses (batch_id, course_id, code, title, term, teacher, timezone, file, line, teacher_email, language) FROM stdin;
\.


--
-- Data for Name: held_rejected; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.held_rejected (batch_id, kind, id) FROM stdin;
\.


--
-- Data for Name: held_tasks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.held_tasks (batch_id, task_id, course_id, title, student_id, due, priority, completed, file, line, assignment_id) FROM stdin;
\.


--
-- Data for Name: overrides; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.overrides (task_id, entry_id, bucket, until, reason, actor) FROM stdin;
T1003	1	upcoming		extension agreed	fixture
\.


--
-- Data for Name: settings; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.settings (key, value) FROM stdin;
default_timezone	UTC
\.


--
-- Data for Name: settings_log; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.settings_log (entry_id, recorded_at, key, old_value, new_value, actor, batch_id) FROM stdin;
1	2026-12-05T08:44:03Z	default_timezone	\N	UTC	root	1
\.


--
-- Data for Name: task_history; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.task_history (batch_id, task_id, change, existed, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, assignment_id) FROM stdin;
2	T1004	delete	1	bio-101-nyc	Microscope drawing: onion epidermis	s2006	2026-12-10T15:00:00Z	low	1	\N	1	
\.


--
-- Data for Name: tasks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tasks (task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket, assignment_id, created_batch, print, slot) FROM stdin;
T1001	bio-101-nyc	Lab report: osmosis in potato cells	s2002	2026-11-29	high	1	\N	1	completed		1	\\x6e6288eab0a836bf4b0460d28c982b14	1
T1002	bio-101-nyc	Cell structure worksheet	s2020	2026-12-16	low	1	\N	1	completed		1	\\x042539ad301b70c40d8bfa455463b286	2
T1005	bio-101-nyc	Punnett square problem set	s2040	2026-11-27T08:00:00	high	0	\N	1	overdue		1	\\xf812f3d29ea668b3718edb441ee02de7	5
T1006	bio-101-nyc	Field journal: campus biodiversity	s2026		normal	1	\N	1	completed		1	\\x6f0d6ff806bcbf5b789435bbf46be053	6
T1008	bio-101-nyc	Group poster: the nitrogen cycle	s2038		normal	0	\N	1	undated		1	\\xc00e3e8a8a1f2d827328f54c76a1b914	8
T1009	bio-101-nyc	Midterm review questions	s2039	2026-11-20T15:00:00Z	high	1	\N	1	completed		1	\\xa798fce82ff8f2c09cd7e7730dcbb735	9
T1010	bio-101-nyc	Genetics vocabulary flashcards	s2022	2026-12-14	normal	1	\N	1	completed		1	\\x85ba9e61e0ff6c797c7bec6719df4e4b	10
T1011	bio-101-nyc	DNA extraction lab pre-lab	s2018	2026-12-13	high	1	\N	1	completed		1	\\x842f4c0ac81126913b5bbf409bfe1bd2	11
T1012	bio-101-nyc	Ecology case study: Yellowstone wolves	s2022	2026-11-26	normal	0	\N	1	overdue		1	\\xa4c6c5bccbbb7fc637644fd3d9086382	12
T1013	bio-101-nyc	Mitosis vs meiosis comparison chart	s2021	2026-12-03	high	0	\N	1	upcoming		1	\\xe1ca0f42d0b55210c2638d8c7cae9000	13
T1014	bio-101-nyc	Peer review of lab report draft	s2020	2026-12-03T21:00:00Z	high	0	\N	1	upcoming		1	\\x5a367b9dc7dd1ce1db91456a7c570f1b	14
T1015	bio-101-nyc	Final project proposal	s2001	2026-12-01T15:00:00Z	low	0	\N	1	upcoming		1	\\xc896db2cd1800c91403da8860f7b4d5e	15
T1016	mat-210-ber	Übungsblatt 7: Eigenwerte	s2016	2026-12-12T17:00:00	normal	1	\N	1	completed		1	\\x862471254abdf9bffcbcb6ea4cf0b958	16
T1017	mat-210-ber	Übungsblatt 8: Diagonalisierung	s2024	2026-12-02T15:00:00Z	high	1	\N	1	completed		1	\\x152ffd1d26942b7717bad3750a43f964	17
T1018	mat-210-ber	Hausaufgabe: Gauß-Algorithmus	s2013	2026-12-09T13:00:00Z	low	1	\N	1	completed		1	\\xd8ce4f2725357e6e065bc986da7c1f13	18
T1019	mat-210-ber	Kurztest: lineare Abbildungen	s2012		high	1	\N	1	completed		1	\\x394ed4f88b5b8a7adaa25022221ef573	19
T1020	mat-210-ber	Übungsblatt 9: Skalarprodukte	s2028	2026-11-23	normal	1	\N	1	completed		1	\\x1a06c4598ff07670f2dd5764340ac595	20
T1021	mat-210-ber	Gram-Schmidt-Verfahren (Präsentation)	s2004	2026-12-15	normal	0	\N	1	upcoming		1	\\xf370b59d37b25b58f59d95c3ed4b6d9b	21
T1022	mat-210-ber	Klausurvorbereitung: Determinanten	s2020	2026-12-10T15:00:00Z	low	0	\N	1	upcoming		1	\\xa18096b32afeea825f5f253bbae5e8fc	22
T1023	mat-210-ber	Übungsblatt 10: Orthogonale Matrizen	s2038	2026-11-29T14:00:00	normal	1	\N	1	completed		1	\\xf492e1efa94898ebc74b4fd139bfff13	23
T1024	mat-210-ber	Projekt: Markov-Ketten in Python	s2018	2026-12-09	normal	1	\N	1	completed		1	\\xb976eebc410a8c2a95cf22f25f9317ff	24
T1025	mat-210-ber	Tutorium: Basiswechsel	s2037		high	1	\N	1	completed		1	\\xda179f5e857ddf93835850a708092c8a	25
T1026	mat-210-ber	Hausaufgabe: Kern und Bild	s2030	2026-11-25	normal	1	\N	1	completed		1	\\x0dd31b4fcfe13f598d0f0713a486a0e9	26
T1027	mat-210-ber	Übungsblatt 11: Jordan-Normalform	s2009	2026-12-09T13:00:00Z	normal	0	\N	1	upcoming		1	\\xaba0e1a57868178a778df6859ace48d5	27
T1028	mat-210-ber	Lernzettel für die Klausur	s2039	2026-11-20T09:00:00Z	high	0	\N	1	overdue		1	\\x7dff44d4cdef36ffe370c97491a9ea85	28
T1029	mat-210-ber	Bonusaufgabe: Singulärwertzerlegung	s2019		normal	0	\N	1	undated		1	\\xcf58e7da14747b9743f04c0675665af2	29
T1030	mat-210-ber	Quiz: Vektorräume	s2028	2026-12-04T13:00:00Z	low	0	\N	1	upcoming		1	\\xd3d16472d8c1e95a2d1388d1ec528c45	30
T1097	eng-105	Essay: "Dulce et Decorum Est", a close reading	s2017	2026-12-05	high	0	\N	1	upcoming		1	\\x14a848b1401f32ed6866c6696b064172	31
T1031	jpn-150-tyo	ひらがな quiz	s2003	2026-12-14	high	1	\N	1	completed		1	\\x05920dee5de4652bfb38fb65dfe92cbc	32
T1032	jpn-150-tyo	カタカナ writing practice	s2015	2026-12-16T01:00:00Z	low	0	\N	1	upcoming		1	\\x0f1f1eb51cc6ddf2c7b78886faa4250f	33
T1003	bio-101-nyc	Reading quiz: chapter 4 (photosynthesis)	s2006	2026-11-21	normal	0	\N	1	upcoming		1	\\xa72f7d65bca30c0041b99511dddc8d79	3
T1004	bio-101-nyc	Microscope drawing: onion epidermis	s2006	2026-12-10T15:00:00Z	low	1	2	2	completed		1	\\x902c00c0352b47b1aad0fba4c2c09871	4
T1007	bio-101-nyc	Enzyme kinetics lab report	s2032	2026-11-29T18:00:00	high	0	\N	1	overdue		1	\\xea66c618d3dda1eb452b0fb776529333	7
T1033	jpn-150-tyo	漢字 1–20 flashcards	s2025	2026-12-12T13:00:00Z	high	1	\N	1	completed		1	\\x0cbd01b514e86955ab48f1e19b1350a4	34
T1034	jpn-150-tyo	Vocabulary test: 家族 (family)	s2015	2026-12-11T01:00:00Z	high	0	\N	1	upcoming		1	\\x6247308a8a2e7ce083cc2b3b386833e3	35
T1035	jpn-150-tyo	Dialogue video: 自己紹介	s2025	2026-12-05T07:00:00Z	high	1	\N	1	completed		1	\\x81f7e4d0cc9ec182a3ecbdb61b2ed982	36
T1036	jpn-150-tyo	Workbook pp. 45–52	s2035	2026-12-11T22:00:00Z	high	0	\N	1	upcoming		1	\\x6b20f0bc63dbeda56a7c39eb8ebb6743	37
T1037	jpn-150-tyo	Listening exercise: 駅で	s2004		low	0	\N	1	undated		1	\\xfac02303c19d4f2c1c0e28e990b1f53a	38
T1038	jpn-150-tyo	Essay: 私の週末 (My weekend)	s2025	2026-12-02	normal	0	\N	1	upcoming		1	\\x7bb1b54e6fa1b2839062b8e990666165	39
T1039	jpn-150-tyo	Kanji stroke order worksheet	s2022	2026-11-21	normal	1	\N	1	completed		1	\\x0002d4c2b3b88067aef78cd082de8bd9	40
T1040	jpn-150-tyo	Reading: 日本の祭り	s2021	2026-12-02T12:59:00	low	0	\N	1	upcoming		1	\\xe4e28ddcfb90ecdfa0324c0d4cf9b4b0	41
T1041	jpn-150-tyo	Oral exam preparation	s2023	2026-12-05T01:00:00Z	high	1	\N	1	completed		1	\\xac9aaa09c5679059beaf72f2e1c7ef66	42
T1042	jpn-150-tyo	Particle drill: は vs が	s2031		high	1	\N	1	completed		1	\\x5ff65dd92a1f1f454b81d3aecaee9b3f	43
T1043	jpn-150-tyo	Culture report: お正月	s2016		high	0	\N	1	undated		1	\\xec985b6a46b2d21f4ec5a10dcee5efac	44
T1044	jpn-150-tyo	Counter words practice (〜つ, 〜本)	s2023	2026-12-12	normal	0	\N	1	upcoming		1	\\xf7ea8adef9de9d152d64a5af5ba01ac3	45
T1098	bio-101-nyc	Group presentation: the carbon cycle	s2023	2026-12-10T14:00:00	normal	0	\N	1	upcoming		1	\\x8ddc0d8889fc943e8e97fcaccdf61ee4	46
T1045	jpn-150-tyo	Final composition draft	s2008	2026-12-04	normal	0	\N	1	upcoming		1	\\xdc596223b01513b384f6354336cc6f50	47
T1046	hst-220-syd	Essay: the 1967 referendum	s2038		low	0	\N	1	undated		1	\\xe89aeef1a1badafe612834a68cc156f3	48
T1047	hst-220-syd	Primary source analysis: First Fleet journals	s2002	2026-11-27	high	0	\N	1	overdue		1	\\x33ab77394bf1371c120fb413fc88dae9	49
T1048	hst-220-syd	Tutorial reading: Federation debates	s2023	2026-11-26T18:00:00	normal	0	\N	1	overdue		1	\\xd412b613e459fb50d6e494b3e2110c46	50
T1049	hst-220-syd	Research proposal	s2021	2026-12-06T23:00:00Z	low	0	\N	1	upcoming		1	\\x647677505e1bd753baf6389cecdf7e7f	51
T1050	hst-220-syd	Annotated bibliography	s2030	2026-12-04T13:00:00Z	low	1	\N	1	completed		1	\\xc2252ab9c0ab65c8af632bf74a7ae58f	52
T1052	hst-220-syd	Reflection: Mabo v Queensland	s2003	2026-12-09	high	0	\N	1	upcoming		1	\\x31089f2dab05ea74395f5f0ca4dc6658	54
T1053	hst-220-syd	Map exercise: colonial boundaries	s2025	2026-12-04T23:00:00Z	normal	0	\N	1	upcoming		1	\\x6a7cef14871e02c41cb72d6dcde1a82e	55
T1054	hst-220-syd	Quiz: Gallipoli and the home front	s2033	2026-12-12	high	0	\N	1	upcoming		1	\\xd609386c503ffb4e722d4423b773eca9	56
T1055	hst-220-syd	Oral history interview notes	s2024	2026-11-28T23:00:00Z	high	1	\N	1	completed		1	\\xd56aa98becda7c6d3ee2e547caa4e307	57
T1056	hst-220-syd	Book review: The Secret River	s2031	2026-11-28T12:30:00	low	1	\N	1	completed		1	\\x64bab7e2ec14587130e9e9bf72d93178	58
T1057	hst-220-syd	Source comparison: Eureka Stockade	s2034	2026-12-06T08:00:00	high	1	\N	1	completed		1	\\x434c4004495cd321010fe2f1a53ec155	59
T1058	hst-220-syd	Timeline assignment 1901–1945	s2013		normal	1	\N	1	completed		1	\\xa104b9318ceb5e982b4cf0e96e189f62	60
T1059	hst-220-syd	Seminar questions week 12	s2014	2026-11-25T13:00:00Z	normal	1	\N	1	completed		1	\\xa59b588061181a839548f19c8b21b24d	61
T1060	hst-220-syd	Final essay outline	s2012	2026-12-15T05:00:00Z	high	0	\N	1	upcoming		1	\\xb2bf1435e51e2b6551bb4fbc5b9d90a4	62
T1061	eng-105	Thesis statement draft	s2030		normal	1	\N	1	completed		1	\\xcd6e97b4193f65f7e52239a70328c344	63
T1062	eng-105	Annotated bibliography (MLA 9)	s2025	2026-11-26	normal	1	\N	1	completed		1	\\xe64aa22deaeb567bea8af62350d9e249	64
T1063	eng-105	Peer review workshop	s2018	2026-12-05	high	0	\N	1	upcoming		1	\\xd44768dc95326b3f1fdabff12487f4a6	65
T1064	eng-105	Rhetorical analysis essay	s2017	2026-12-16T12:00:00	high	1	\N	1	completed		1	\\x5a9e50b632737ffb2d46930206182e06	66
T1065	eng-105	Reflection journal #6	s2029	2026-12-08	high	1	\N	1	completed		1	\\x50a6b595a199f3f8209074eca55c9933	67
T1066	eng-105	Argumentative essay: final draft	s2013	2026-12-14	high	0	\N	1	upcoming		1	\\x8294482e448ef68edac236f079081152	68
T1067	eng-105	Citation practice quiz	s2030	2026-11-28T23:00:00	normal	0	\N	1	overdue		1	\\x799e3b59c3c179b7d5d1c1a922e8a40e	69
T1068	eng-105	Revision plan	s2036	2026-11-24T00:00:00Z	high	1	\N	1	completed		1	\\x4f3cf502227fb9dfe62ee87e6e4d8a33	70
T1069	eng-105	Conference sign-up	s2006	2026-11-24	high	0	\N	1	overdue		1	\\x1c48bd7824ac744b1bbfee4b945ed3b7	71
T1070	eng-105	Summary & response: "Politics and the English Language"	s2007	2026-11-30T00:00:00Z	high	1	\N	1	completed		1	\\xb0f0bbbfd0b7eb140e1a5764cb3f62fa	72
T1071	eng-105	Portfolio cover letter	s2037	2026-11-27T00:00:00Z	low	1	\N	1	completed		1	\\x343237fa185f4dc831586c4d41c41949	73
T1072	eng-105	Grammar review: comma splices	s2036	2026-12-18T22:00:00Z	high	1	\N	1	completed		1	\\xae6ece1e25e0e90d0a5124c74f7d0dad	74
T1073	eng-105	Research log week 13	s2019	2026-12-09T00:00:00Z	normal	0	\N	1	upcoming		1	\\xa20596da9564b003a19b648e50c214b7	75
T1074	eng-105	Counterargument paragraph	s2028	2026-12-13T22:00:00Z	normal	1	\N	1	completed		1	\\xfa6d07a1769b024a184d41e890a82f95	76
T1075	eng-105	Résumé and cover letter workshop	s2001	2026-12-13T00:00:00Z	normal	0	\N	1	upcoming		1	\\x82d3e1436062140224114cd41f241b31	77
T1076	bio-101-nyc	Lab safety quiz	s2001	2026-11-29	high	1	\N	1	completed		1	\\x6af5b37a1a16ac36e46e012c6fdc6cbc	78
T1077	bio-101-nyc	Reading quiz: chapter 5 (respiration)	s2008	2026-11-29T23:59:00	high	0	\N	1	today		1	\\x2eb3518e5db60b179a8c9da1fd261a3e	79
T1079	jpn-150-tyo	Kanji quiz: 学校・先生・学生	s2022		high	1	\N	1	completed		1	\\x0d6d542c92aa8f21b30be879381b6fbc	81
T1080	hst-220-syd	Tutorial reading: the Stolen Generations report	s2029	2026-12-02T12:00:00	normal	0	\N	1	upcoming		1	\\xd5b8fa14f6530ac78326ea9bfdab95e1	82
T1081	eng-105	Final portfolio	s2036	2026-12-18	normal	0	\N	1	upcoming		1	\\x98fe3b616a9cec425c3d3497c71342f3	83
T1082	eng-105	Café observation essay	s2003		normal	1	\N	1	completed		1	\\x9a75f2f4894de0ecf234e541d322779e	84
T1084	jpn-150-tyo	Katakana loanwords worksheet	s2017	2026-11-25	normal	0	\N	1	overdue		1	\\x5eb90cf0ee56703ec73f68c7e6d98883	86
T1085	hst-220-syd	Week 13 discussion post	s2024	2026-12-07T09:00:00Z	low	1	\N	1	completed		1	\\x968af8ead62153a8766dc914457c30de	87
T1086	bio-101-nyc	Dissection lab reflection	s2031	2026-11-29	low	0	\N	1	today		1	\\xcc4c7700fc59745dbcda12a59b9f8f10	88
T1087	eng-105	Library research session	s2038	2026-12-01T15:00:00Z	normal	0	\N	1	upcoming		1	\\x5ef7f6769fc6da1b35603992f36e9654	89
T1088	mat-210-ber	Übungsblatt 13: Wiederholung	s2005	2026-12-14	high	1	\N	1	completed		1	\\xe9bd5a9f89ea3b5278e65a0f4e91041c	90
T1089	jpn-150-tyo	Shadowing recording	s2012	2026-11-27T20:00:00	low	0	\N	1	overdue		1	\\x9cf1dd01cd66d25cf1a1afbb61c6359a	91
T1090	hst-220-syd	Exam revision notes	s2019	2026-12-09	high	0	\N	1	upcoming		1	\\x7265aa2301455e50435d9e87945c5351	92
T1091	bio-101-nyc	Homeostasis concept map	s2026		high	1	\N	1	completed		1	\\xfc683559a86090827b243a1d352c39cd	93
T1092	eng-105	Naïve readings: response paper	s2033	2026-12-04T08:30:00	high	0	\N	1	upcoming		1	\\x4d259d03832014138b1448f2fcbe30e5	94
T1094	jpn-150-tyo	Reading: 東京の地下鉄	s2007	2026-12-11T15:00:00	normal	1	\N	1	completed		1	\\xc292097e3ca04c4e061a9d2e2ff30b63	96
T1095	hst-220-syd	Museum visit worksheet	s2014		normal	0	\N	1	undated		1	\\xf1e61498a0aabdcc0d6030794c47c1ea	97
T1096	eng-105	Style analysis: "Hemingway's short sentences"	s2021	2026-12-16T23:00:00Z	normal	0	\N	1	upcoming		1	\\xed210ac7e2617ba7f6b0809eb64a6436	98
T1099	bio-101-nyc	Late addition: reflection	s2002	2026-12-20	normal	0	\N	2	upcoming		2	\\x8b3bec33a6e4d57d6bdf12c6a601c90c	99
T1051	hst-220-syd	Presentation: the gold rushes	s2025	2026-11-29	normal	0	\N	1	overdue		1	\\x35e474bacd86cc313ce64a7b959fa317	53
T1078	mat-210-ber	Übungsblatt 12: Quadriken	s2015	2026-11-29T09:00:00Z	high	0	\N	1	overdue		1	\\x6663ba9eb15a0af2030ce5f7ba207479	80
T1083	mat-210-ber	Nachklausur-Anmeldung	s2010	2026-11-29T17:00:00	normal	0	\N	1	overdue		1	\\x8ef8df8e804c3cd4c47f84a51d5f395f	85
T1093	mat-210-ber	Größenvergleich: Normen	s2040	2026-11-30	high	0	\N	1	today		1	\\xa56433c9f6f6bdef9597bd974b8c318f	95
\.


--
-- Name: audit_entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.audit_entry_id_seq', 7, true);


--
-- Name: batches_batch_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.batches_batch_id_seq', 2, true);


--
-- Name: settings_log_entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.settings_log_entry_id_seq', 2, false);


--
-- Name: audit audit_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_pkey PRIMARY KEY (entry_id);


--
-- Name: batch_births batch_births_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_births
    ADD CONSTRAINT batch_births_pkey PRIMARY KEY (batch_id, bucket);


--
-- Name: batch_counts batch_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_counts
    ADD CONSTRAINT batch_counts_pkey PRIMARY KEY (batch_id, kind);


--
-- Name: batch_files batch_files_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_files
    ADD CONSTRAINT batch_files_pkey PRIMARY KEY (batch_id, "position");


--
-- Name: batch_problems batch_problems_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_problems
    ADD CONSTRAINT batch_problems_pkey PRIMARY KEY (batch_id, seq);


--
-- Name: batches batches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_pkey PRIMARY KEY (batch_id);


--
-- Name: course_buckets course_buckets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_buckets
    ADD CONSTRAINT course_buckets_pkey PRIMARY KEY (course_id, bucket);


--
-- Name: course_history course_history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_history
    ADD CONSTRAINT course_history_pkey PRIMARY KEY (batch_id, course_id);


--
-- Name: courses courses_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.courses
    ADD CONSTRAINT courses_pkey PRIMARY KEY (course_id);


--
-- Name: dashboard_schema dashboard_schema_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dashboard_schema
    ADD CONSTRAINT dashboard_schema_pkey PRIMARY KEY (id);


--
-- Name: data_marks data_marks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.data_marks
    ADD CONSTRAINT data_marks_pkey PRIMARY KEY (id);


--
-- Name: held_courses held_courses_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_courses
    ADD CONSTRAINT held_courses_pkey PRIMARY KEY (batch_id, course_id);


--
-- Name: held_rejected held_rejected_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_rejected
    ADD CONSTRAINT held_rejected_pkey PRIMARY KEY (batch_id, kind, id);


--
-- Name: held_tasks held_tasks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_tasks
    ADD CONSTRAINT held_tasks_pkey PRIMARY KEY (batch_id, task_id);


--
-- Name: overrides overrides_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.overrides
    ADD CONSTRAINT overrides_pkey PRIMARY KEY (task_id);


--
-- Name: settings_log settings_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.settings_log
    ADD CONSTRAINT settings_log_pkey PRIMARY KEY (entry_id);


--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);


--
-- Name: task_history task_history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_history
    ADD CONSTRAINT task_history_pkey PRIMARY KEY (batch_id, task_id);


--
-- Name: tasks tasks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_pkey PRIMARY KEY (task_id);


--
-- Name: audit_by_batch; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_by_batch ON public.audit USING btree (batch_id) WHERE (batch_id IS NOT NULL);


--
-- Name: audit_by_group; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_by_group ON public.audit USING btree (group_id) WHERE (group_id IS NOT NULL);


--
-- Name: audit_by_reverted; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_by_reverted ON public.audit USING btree (reverts_entry) WHERE (reverts_entry IS NOT NULL);


--
-- Name: audit_by_task; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_by_task ON public.audit USING btree (task_id, entry_id);


--
-- Name: tasks_by_course; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_by_course ON public.tasks USING btree (course_id);


--
-- Name: audit audit_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_append_only BEFORE DELETE OR UPDATE ON public.audit FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_audit_append_only();


--
-- Name: audit audit_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON public.audit FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_audit_append_only();


--
-- Name: batches batches_referred_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER batches_referred_deleted AFTER DELETE ON public.batches REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_batches_referred();


--
-- Name: batches batches_referred_updated; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER batches_referred_updated AFTER UPDATE ON public.batches REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_batches_referred();


--
-- Name: courses courses_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER courses_deleted AFTER DELETE ON public.courses FOR EACH ROW EXECUTE FUNCTION public.dashboard_data_written();


--
-- Name: courses courses_inserted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER courses_inserted AFTER INSERT ON public.courses FOR EACH ROW EXECUTE FUNCTION public.dashboard_data_written();


--
-- Name: courses courses_referred_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER courses_referred_deleted AFTER DELETE ON public.courses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_courses_referred();


--
-- Name: courses courses_referred_updated; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER courses_referred_updated AFTER UPDATE ON public.courses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_courses_referred();


--
-- Name: courses courses_updated; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER courses_updated AFTER UPDATE ON public.courses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_courses_updated();


--
-- Name: overrides overrides_written; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER overrides_written AFTER INSERT OR DELETE OR UPDATE ON public.overrides FOR EACH ROW EXECUTE FUNCTION public.dashboard_bucket_written();


--
-- Name: tasks tasks_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_deleted AFTER DELETE ON public.tasks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_tasks_deleted();


--
-- Name: tasks tasks_inserted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_inserted AFTER INSERT ON public.tasks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_tasks_inserted();


--
-- Name: tasks tasks_print_inserted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_print_inserted AFTER INSERT ON public.tasks FOR EACH ROW WHEN (((new.print IS NOT NULL) AND public.dashboard_triggers_on())) EXECUTE FUNCTION public.dashboard_tasks_print_inserted();


--
-- Name: tasks tasks_print_stale; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_print_stale BEFORE UPDATE OF task_id, course_id, title, student_id, due, priority, completed, assignment_id, deleted_batch ON public.tasks FOR EACH ROW WHEN (((new.print IS NOT NULL) AND public.dashboard_triggers_on())) EXECUTE FUNCTION public.dashboard_tasks_print_stale();


--
-- Name: tasks tasks_print_written; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_print_written AFTER UPDATE OF print, slot ON public.tasks FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_bucket_written();


--
-- Name: tasks tasks_refer_inserted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_refer_inserted AFTER INSERT ON public.tasks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_tasks_refer();


--
-- Name: tasks tasks_refer_updated; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_refer_updated AFTER UPDATE ON public.tasks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_tasks_refer();


--
-- Name: tasks tasks_updated; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_updated AFTER UPDATE ON public.tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dashboard_tasks_updated();


--
-- Name: audit audit_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: audit audit_override_before_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_override_before_fkey FOREIGN KEY (override_before) REFERENCES public.audit(entry_id);


--
-- Name: audit audit_reverts_entry_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_reverts_entry_fkey FOREIGN KEY (reverts_entry) REFERENCES public.audit(entry_id);


--
-- Name: batch_births batch_births_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_births
    ADD CONSTRAINT batch_births_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: batch_counts batch_counts_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_counts
    ADD CONSTRAINT batch_counts_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: batch_files batch_files_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_files
    ADD CONSTRAINT batch_files_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: batch_problems batch_problems_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch_problems
    ADD CONSTRAINT batch_problems_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: batches batches_approved_from_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_approved_from_fkey FOREIGN KEY (approved_from) REFERENCES public.batches(batch_id);


--
-- Name: batches batches_reverts_batch_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_reverts_batch_fkey FOREIGN KEY (reverts_batch) REFERENCES public.batches(batch_id);


--
-- Name: course_history course_history_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_history
    ADD CONSTRAINT course_history_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: courses courses_changed_batch_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.courses
    ADD CONSTRAINT courses_changed_batch_fkey FOREIGN KEY (changed_batch) REFERENCES public.batches(batch_id);


--
-- Name: courses courses_deleted_batch_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.courses
    ADD CONSTRAINT courses_deleted_batch_fkey FOREIGN KEY (deleted_batch) REFERENCES public.batches(batch_id);


--
-- Name: held_courses held_courses_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_courses
    ADD CONSTRAINT held_courses_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: held_rejected held_rejected_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_rejected
    ADD CONSTRAINT held_rejected_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: held_tasks held_tasks_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.held_tasks
    ADD CONSTRAINT held_tasks_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: overrides overrides_entry_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.overrides
    ADD CONSTRAINT overrides_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.audit(entry_id);


--
-- Name: overrides overrides_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.overrides
    ADD CONSTRAINT overrides_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(task_id);


--
-- Name: settings_log settings_log_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.settings_log
    ADD CONSTRAINT settings_log_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- Name: task_history task_history_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_history
    ADD CONSTRAINT task_history_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(batch_id);


--
-- PostgreSQL database dump complete
--


