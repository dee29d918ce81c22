/*
 * report.h — `hdrslim report`'s page: the tree's cost table, each
 * header's own include graph (what it brings alone, and what each of its
 * #include lines brings), its includers, check's findings about it and
 * the proposals of slim and split, gathered into one JSON document and
 * written into a self-contained HTML page (the template in
 * src/report.html, compiled in) that draws the treemap and the header
 * pages in the browser, with no network.
 */
#ifndef HDRSLIM_REPORT_H
#define HDRSLIM_REPORT_H

#include "check.h"
#include "metrics.h"

typedef struct {
	char *header;   /* path relative to the tree */
	char *slim;     /* `slim --json` output, or NULL */
	char *split;    /* `split --json` output, or NULL */
} Proposal;

typedef struct {
	Session *s;
	const CostTable *cost;   /* sorted as the page lists it */
	Check *ck;               /* NULL: no findings */
	const FindingVec *findings;
	const Proposal *props;
	int nprops;
	int max_includers;       /* top includers listed per header */
	int max_fallout;         /* fallout notes per finding */
} ReportInput;

/* Appends the report's data as one JSON object. */
void report_data(const ReportInput *in, StrBuf *out);
/* Appends the whole HTML page with the data inside. */
void report_html(const ReportInput *in, StrBuf *out);

/* The page's template (build/report_html.c, made from src/report.html):
 * the data goes where REPORT_DATA_MARK stands. */
extern const char report_template[];
#define REPORT_DATA_MARK "/*HDRSLIM-DATA*/"

#endif
