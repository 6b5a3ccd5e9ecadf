# readperf's tests: the module perf's Perl engine builds in (Perf::Trace::Context, its
# common_pc(), common_flags() and common_lock_depth()), loaded as perf's own scripts load
# theirs, so that the tests need no perf installed.
package Perf::Trace::Context;

use strict;
use warnings;

require Exporter;
our @ISA = qw(Exporter);
our @EXPORT = qw(common_pc common_flags common_lock_depth);
our $VERSION = '0.01';

require XSLoader;
XSLoader::load('Perf::Trace::Context', $VERSION);

1;
