"""Frictionless's verdict on CSV files, against the descriptor `dashboard schema` prints.

Run by Tests/EndToEndTests/Commands/Schema/SchemaCommandTests.swift with the frictionless package of the
build's Python environment (`make python-tools`):

    python3 verdicts.py PLAN.json > VERDICTS.json
    python3 verdicts.py descriptor datapackage.json > READ.json

PLAN.json:

    {"descriptor": "datapackage.json",
     "runs": [{"name": "samples", "delimiter": ",",
               "files": [{"path": "courses.csv", "kind": "courses",
                          "labels": {"course_id": "Course ID", ...}}, ...]}]}

`kind` is the kind the dashboard reads the file as (from its header), or null when it cannot
tell: the file is then validated as each kind, and is valid when it is valid as one of them.
`labels` gives, for each column the dashboard recognizes, the label the file's header uses
for it (an alias such as `Due Date`): Frictionless matches field names ignoring case only, so
the file is validated twice, with the descriptor as printed and with each field renamed to
its file's label ("adapted"), the recipe docs/formats.md gives for exports with aliases.

A run is one package: its files are validated together, so the foreign key from tasks to
courses reads the run's courses file, or an empty one when the run has none (the dashboard
checks a tasks file alone against an empty database). `delimiter` replaces the dialect's.

VERDICTS.json, for each run and file, as printed and adapted: `valid`, and `errors`, each
with its Frictionless `type`, `row` (Frictionless's row number, null for the header and the
file) and `line` (the physical line where that row starts, counted on the same parse, null
when there is no row).
"""

import copy
import csv
import json
import os
import sys

from frictionless import Package

KINDS = ["courses", "tasks"]


def adapted(resource, labels, reference_labels):
    """The resource with each field renamed to the label its file uses."""
    resource = copy.deepcopy(resource)
    schema = resource["schema"]
    rename = lambda names, table: [table.get(name, name) for name in names]
    for field in schema["fields"]:
        field["name"] = labels.get(field["name"], field["name"])
    schema["primaryKey"] = rename(schema["primaryKey"], labels)
    for key in schema.get("foreignKeys", []):
        key["fields"] = rename(key["fields"], labels)
        key["reference"]["fields"] = rename(key["reference"]["fields"], reference_labels)
    return resource


def record_lines(path, encoding, delimiter):
    """The physical line where each record starts, by Frictionless's row number (the header
    is row 1), parsing as Frictionless's CSV parser does; empty when the file cannot be read."""
    lines = {}
    try:
        with open(path, encoding="utf-8-sig" if encoding == "utf-8" else encoding, newline="") as text:
            reader = csv.reader(text, delimiter=delimiter, quotechar='"', doublequote=True)
            start = 1
            for number, _ in enumerate(reader, start=1):
                lines[number] = start
                start = reader.line_num + 1
    except (UnicodeDecodeError, csv.Error, LookupError):
        pass
    return lines


def verdict(resources, basepath, delimiter, lines_by_name):
    """Validates the resources as one package: for each, `valid` and its `errors`."""
    package = Package({"name": "run", "resources": resources}, basepath=basepath)
    report = package.validate()
    out = {}
    for task in report.tasks:
        lines = lines_by_name.get(task.name, {})
        errors = []
        for error in task.errors:
            row = getattr(error, "row_number", None)
            errors.append({"type": error.type, "row": row, "line": lines.get(row) if row else None})
        out[task.name] = {"valid": task.valid, "errors": errors}
    return out


def run(plan_run, descriptor, basepath):
    by_kind = {resource["name"]: resource for resource in descriptor["resources"]}
    delimiter = plan_run["delimiter"]

    def prepared(resource, path, name):
        resource = copy.deepcopy(resource)
        resource["path"] = path
        resource["name"] = name
        resource["dialect"]["delimiter"] = delimiter
        return resource

    results = []
    known = [file for file in plan_run["files"] if file["kind"]]
    courses = next((file for file in known if file["kind"] == "courses"), None)
    # Tasks without courses: the foreign key reads an empty courses file.
    extra = []
    if courses is None and any(file["kind"] == "tasks" for file in known):
        empty = os.path.join(basepath, ".empty-courses.csv")
        with open(empty, "w", encoding="utf-8") as handle:
            handle.write("course_id,title\r\n")
        extra.append(prepared(by_kind["courses"], ".empty-courses.csv", "courses"))
    for variant in ["as_printed", "adapted"]:
        resources = []
        lines_by_name = {}
        reference_labels = courses["labels"] if courses else {}
        for file in known:
            resource = prepared(by_kind[file["kind"]], file["path"], file["kind"])
            if variant == "adapted":
                resource = adapted(resource, file["labels"], reference_labels)
            resources.append(resource)
            lines_by_name[file["kind"]] = record_lines(os.path.join(basepath, file["path"]), resource["encoding"], delimiter)
        if resources:
            verdicts = verdict(resources + extra, basepath, delimiter, lines_by_name)
            for file in known:
                file.setdefault("result", {})[variant] = verdicts[file["kind"]]
    for file in plan_run["files"]:
        if file["kind"]:
            results.append({"path": file["path"], "kind": file["kind"], **file["result"]})
            continue
        # The dashboard cannot tell the kind: valid when valid as one of them.
        lines = record_lines(os.path.join(basepath, file["path"]), by_kind["courses"]["encoding"], delimiter)
        each = {}
        for kind in KINDS:
            resources = [prepared(by_kind[kind], file["path"], kind)]
            if kind == "tasks":
                resources += [prepared(by_kind["courses"], ".empty-courses.csv", "courses")]
                with open(os.path.join(basepath, ".empty-courses.csv"), "w", encoding="utf-8") as handle:
                    handle.write("course_id,title\r\n")
            each[kind] = verdict(resources, basepath, delimiter, {kind: lines})[kind]
        valid = any(each[kind]["valid"] for kind in KINDS)
        errors = [] if valid else each["courses"]["errors"] + each["tasks"]["errors"]
        result = {"valid": valid, "errors": errors}
        results.append({"path": file["path"], "kind": None, "as_printed": result, "adapted": result})
    return {"name": plan_run["name"], "files": results}


def descriptor_as_read(path):
    """What frictionless makes of the descriptor: whether it is valid (its own profile
    checks), and the package it reads from it, property by property."""
    report = Package.validate_descriptor(path)
    package = Package(path)
    resources = []
    for resource in package.resources:
        dialect = resource.dialect
        control = dialect.get_control("csv")
        schema = resource.schema
        resources.append(
            {
                "name": resource.name,
                "type": resource.type,
                "path": resource.path,
                "format": resource.format,
                "encoding": resource.encoding,
                "dialect": {
                    "header": dialect.header,
                    "header_case": dialect.header_case,
                    "skip_blank_rows": dialect.skip_blank_rows,
                    "delimiter": control.delimiter,
                    "quote_char": control.quote_char,
                    "double_quote": control.double_quote,
                    "line_terminator": control.line_terminator,
                    "skip_initial_space": control.skip_initial_space,
                },
                "fields_match": schema.fields_match,
                "missing_values": schema.missing_values,
                "fields": [
                    {
                        "name": field.name,
                        "type": field.type,
                        "required": field.required,
                        "constraints": sorted(field.constraints),
                    }
                    for field in schema.fields
                ],
                "primary_key": schema.primary_key,
                "foreign_keys": schema.foreign_keys,
            }
        )
    return {
        "valid": report.valid,
        "errors": [error.message for error in report.errors],
        "profile": package.profile,
        "resources": resources,
    }


def main():
    if sys.argv[1] == "descriptor":
        json.dump(descriptor_as_read(sys.argv[2]), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    with open(sys.argv[1], encoding="utf-8") as handle:
        plan = json.load(handle)
    basepath = os.path.dirname(os.path.abspath(sys.argv[1]))
    with open(os.path.join(basepath, plan["descriptor"]), encoding="utf-8") as handle:
        descriptor = json.load(handle)
    runs = [run(plan_run, descriptor, basepath) for plan_run in plan["runs"]]
    json.dump({"frictionless": __import__("frictionless").__version__, "runs": runs}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
