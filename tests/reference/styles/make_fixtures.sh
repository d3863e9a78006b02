#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fixtures for `compare --style`: the tables the real tools print for the
# crafted inputs of cases.txt. For every case it writes
#
#   cases/NAME.json              the samples, as schedperf-results/1
#   expected/NAME.mmtests        MMTests (current) compare-mmtests.pl
#   expected/NAME.mmtests-classic  MMTests v0.27 compare-mmtests.pl
#   expected/NAME.lkp            lkp-tests' Compare (lib/compare.rb)
#   expected/NAME.benchstat      benchstat (golang.org/x/perf/cmd/benchstat)
#
# and tests/cli/styles.bats checks schedperf's output against them.
#
# The tools, at the versions the fixtures were made with:
#
#   MMTESTS_DIR          MMTests, git commit 638401e07e70 (2026-06-25), the
#                        code of release v2.0-rc5 for compare: a checkout of
#                        github.com/gormanm/mmtests. Needs perl with
#                        File::Which, File::Slurp, YAML::PP, JSON and
#                        Cpanel::JSON::XS (Debian: libfile-which-perl
#                        libfile-slurp-perl libyaml-pp-perl libjson-perl
#                        libcpanel-json-xs-perl) and R (r-base-core).
#   MMTESTS_CLASSIC_DIR  the same repository at tag v0.27 (bac993da,
#                        2023-08-31), the last release before the December
#                        2024 change to confidence-interval marks.
#   LKP_DIR              lkp-tests, git commit bbbc29c495d9 (2026-07-22),
#                        github.com/intel/lkp-tests. Needs ruby with
#                        activesupport, tty-command and git (Debian:
#                        ruby-activesupport ruby-tty-command ruby-git
#                        ruby-gnuplot).
#   BENCHSTAT            a benchstat binary built from golang.org/x/perf at
#                        commit 71ba5bc8ccce (2025-04-07; its text output is
#                        that of the current 712aea8b47 tree) with
#                        github.com/aclements/go-moremath at f10218a38794, the
#                        version x/perf's go.mod requires. Debian's golang-go
#                        (1.19) builds it offline from the two checkouts (and
#                        github.com/google/safehtml) with `replace` lines in a
#                        scratch module: go build golang.org/x/perf/cmd/benchstat.
#
# Obtain and build them yourself; this script only runs them:
#
#   MMTESTS_DIR=... MMTESTS_CLASSIC_DIR=... LKP_DIR=... BENCHSTAT=... \
#       tests/reference/styles/make_fixtures.sh
#
# How schedperf's rows become each tool's input is what the styles promise
# (doc/schedperf.1, STYLES): a table per workload and metric for MMTests
# with the parameter sets as its operations and schedperf's decimals as
# the benchmark's precision; an LKP group per workload and parameters with
# stats WORKLOAD.METRIC (SOURCE.METRIC for monitors) and one matrix column
# per sample; benchstat lines "BenchmarkWORKLOAD/KEY=VALUE 1 VALUE METRIC".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${MMTESTS_DIR:?the MMTests checkout (see the header)}"
: "${MMTESTS_CLASSIC_DIR:?MMTests at v0.27 (see the header)}"
: "${LKP_DIR:?the lkp-tests checkout (see the header)}"
: "${BENCHSTAT:?a benchstat binary (see the header)}"
export MMTESTS_DIR MMTESTS_CLASSIC_DIR LKP_DIR BENCHSTAT

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/cases" "$here/expected" "$work/current/MMTests" "$work/classic/MMTests"

# A benchmark for each MMTests version, declared the way its own benchmarks
# are: summarised as Multiops, its precision and preferred direction, its
# operations in the order given.
cat > "$work/current/MMTests/ExtractSchedperf.pm" <<'PERL'
package MMTests::ExtractSchedperf;
use MMTests::Summarise;
our @ISA = qw(MMTests::Summarise);
use strict;

sub initialise() {
	my ($self, $subHeading) = @_;
	$self->setSummaryMultiops();
	$self->SUPER::initialise($subHeading);
	$self->{_ModuleName} = "ExtractSchedperf";
	$self->{_Precision} = $ENV{SCHEDPERF_PRECISION};
	$self->{_PreferredVal} = $ENV{SCHEDPERF_PREFER};
	$self->{_Operations} = [ split(/ /, $ENV{SCHEDPERF_OPS}) ];
}
1;
PERL
cat > "$work/classic/MMTests/ExtractSchedperf.pm" <<'PERL'
package MMTests::ExtractSchedperf;
use MMTests::SummariseMultiops;
our @ISA = qw(MMTests::SummariseMultiops);
use strict;

sub initialise() {
	my ($self, $subHeading) = @_;
	$self->{_ModuleName} = "ExtractSchedperf";
	$self->{_DataType} = $ENV{SCHEDPERF_PREFER} eq "Higher" ?
		DataTypes::DATA_OPS_PER_SECOND : DataTypes::DATA_TIME_SECONDS;
	$self->{_Precision} = $ENV{SCHEDPERF_PRECISION};
	$self->{_Operations} = [ split(/ /, $ENV{SCHEDPERF_OPS}) ];
	$self->SUPER::initialise($subHeading);
}
1;
PERL

# v0.27's Stat.pm imports List::BinarySearch, which Debian does not package,
# for calc_samples() only: compare of a Multiops benchmark never calls it.
mkdir -p "$work/classic/List"
cat > "$work/classic/List/BinarySearch.pm" <<'PERL'
package List::BinarySearch;
use Exporter 'import';
our @EXPORT_OK = qw(binsearch_range);
sub binsearch_range(&$$\@) { die "binsearch_range: not part of compare\n" }
1;
PERL

cat > "$work/lkp.rb" <<'RUBY'
# One LKP group: Compare::Group#each_changed_stat picks and computes the
# rows (lib/stats.rb's rules), Compare.show_group prints them.
require 'json'
LKP_SRC = ENV['LKP_DIR']
require "#{LKP_SRC}/lib/compare"
Root = Struct.new(:matrix, :axes) do
  def complete_matrix(m) = m
end
g = JSON.parse(File.read(ARGV[0]))
roots = g['matrices'].zip(g['runs']).map { |m, run| Root.new(m, { 'commit' => run }) }
group = Compare::Group.new(Compare::Comparer.new, g['axes'],
                           g['runs'].map { |run| { 'commit' => run } }, roots)
Compare.show_group(group, Compare.sort_stats(group.each_changed_stat))
RUBY

/usr/bin/python3 - "$here" "$work" <<'PY'
import json, math, os, random, subprocess, sys

here, work = sys.argv[1], sys.argv[2]


def parse_cases(path):
    cases, case = [], None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        word, _, rest = line.partition(' ')
        if word == 'case':
            case = {'name': rest, 'runs': [], 'rows': []}
            cases.append(case)
        elif word == 'runs':
            case['runs'] = rest.split()
        elif word == 'row':
            head, *lists = [s.strip() for s in rest.split('::')]
            workload, params, metric, unit, better, source = head.split()
            r = random.Random(len(case['rows']) * 7919 + sum(map(ord, case['name'])))
            params = {} if params == '-' else dict(kv.split('=') for kv in params.split(','))
            samples = [[float(x) for x in eval(e, {'r': r, 'round': round})] for e in lists]
            assert len(samples) == len(case['runs']), line
            case['rows'].append(dict(workload=workload, params=params, metric=metric,
                                     unit=unit, better=better, source=source, samples=samples))
    return cases


def results_json(case):
    runs = []
    for i, name in enumerate(case['runs']):
        benches = []
        for row in case['rows']:
            bench = next((b for b in benches if b['workload'] == row['workload']
                          and b['params'] == row['params']), None)
            if bench is None:
                bench = {'workload': row['workload'], 'params': row['params'], 'metrics': []}
                benches.append(bench)
            bench['metrics'].append({'name': row['metric'], 'unit': row['unit'],
                                     'better': row['better'], 'source': row['source'],
                                     'samples': row['samples'][i]})
        runs.append({'name': name, 'started': '2026-01-01T00:00:00Z', 'complete': True,
                     'environment': {'machine.hostname': 'fixture'}, 'benchmarks': benches})
    return {'schema': 'schedperf-results/1', 'runs': runs}


def params_text(params, sep):
    return sep.join('%s=%s' % (k, params[k]) for k in sorted(params))


def run(cmd, env=None, stdin=None):
    p = subprocess.run(cmd, env=env, input=stdin, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'failed'
    return p.stdout, None


def tables(case):
    """The rows grouped by (workload, metric), in order of appearance."""
    out = {}
    for row in case['rows']:
        out.setdefault((row['workload'], row['metric']), []).append(row)
    return list(out.values())


def decimals(rows):
    """schedperf's mmtests precision: about five significant digits."""
    scale = max((abs(sum(s) / len(s)) for row in rows for s in row['samples']), default=0)
    if scale <= 0:
        return 2
    return min(9, max(2, 4 - math.floor(math.log10(scale))))


def mmtests(case, classic):
    tool = os.environ['MMTESTS_CLASSIC_DIR' if classic else 'MMTESTS_DIR']
    blocks = []
    for rows in tables(case):
        ops = [params_text(r['params'], ',') or r['metric'] for r in rows]
        modules = []
        for i, name in enumerate(case['runs']):
            data = {op: [{'Values': r['samples'][i],
                          'SampleNrs': list(range(1, len(r['samples'][i]) + 1))}]
                    for op, r in zip(ops, rows)}
            modules.append({'_ModuleName': 'ExtractSchedperf', '_TestName': name,
                            '_ResultData': data})
        src = os.path.join(work, 'mmtests.json')
        json.dump(modules, open(src, 'w'))
        env = dict(os.environ, PERL5LIB=os.path.join(work, 'classic' if classic else 'current'),
                   SCHEDPERF_PRECISION=str(decimals(rows)), SCHEDPERF_OPS=' '.join(ops),
                   SCHEDPERF_PREFER='Higher' if rows[0]['better'] == 'higher' else 'Lower')
        out, err = run(['perl', os.path.join(tool, 'bin/compare-mmtests.pl'),
                        '--from-json', src], env)
        blocks.append(out if out is not None else 'TOOL FAILED: %s\n' % err)
    return '\n'.join(blocks)


def lkp(case):
    groups = {}
    for row in case['rows']:
        groups.setdefault((row['workload'], params_text(row['params'], ' ')), []).append(row)
    out = []
    for rows in groups.values():
        axes = dict(rows[0]['params'], testcase=rows[0]['workload'])
        matrices = []
        for i, name in enumerate(case['runs']):
            m = {}
            for row in rows:
                prefix = row['workload'] if row['source'] == 'workload' else row['source']
                m['%s.%s' % (prefix, row['metric'])] = row['samples'][i]
            m['stats_source'] = ['%s/%d' % (name, j)
                                 for j in range(max(len(v) for v in m.values()))]
            matrices.append(m)
        src = os.path.join(work, 'lkp.json')
        json.dump({'axes': {k: axes[k] for k in sorted(axes)}, 'runs': case['runs'],
                   'matrices': matrices}, open(src, 'w'))
        text, err = run(['ruby', os.path.join(work, 'lkp.rb'), src])
        out.append(text if text is not None else 'TOOL FAILED: %s\n' % err)
    return ''.join(out)


def benchstat(case):
    args = []
    for i, name in enumerate(case['runs']):
        path = os.path.join(work, 'bench-%d.txt' % i)
        with open(path, 'w') as f:
            for row in case['rows']:
                bench = '/'.join([row['workload']] + ['%s=%s' % (k, row['params'][k])
                                                      for k in sorted(row['params'])])
                for v in row['samples'][i]:
                    f.write('Benchmark%s 1 %r %s\n' % (bench, v, row['metric']))
        args.append('%s=%s' % (name, path))
    out, err = run([os.environ['BENCHSTAT']] + args)
    return out if out is not None else 'TOOL FAILED: %s\n' % err


for case in parse_cases(os.path.join(here, 'cases.txt')):
    name = case['name']
    with open(os.path.join(here, 'cases', name + '.json'), 'w') as f:
        json.dump(results_json(case), f, indent=1)
        f.write('\n')
    for style, text in (('mmtests', mmtests(case, False)),
                        ('mmtests-classic', mmtests(case, True)),
                        ('lkp', lkp(case)), ('benchstat', benchstat(case))):
        with open(os.path.join(here, 'expected', '%s.%s' % (name, style)), 'w') as f:
            f.write(text)
    print('made', name)
PY
