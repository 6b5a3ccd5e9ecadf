# `script -s` test of perf 6.1's Perl engine (util/scripting-engines/trace-event-perl.c):
# process_event() with the packed record, perf_event_attr and struct perf_sample; the
# tracepoint handlers' arguments (SYSTEM::EVENT, else trace_unhandled()), their call chains,
# the Perf::Trace::Context functions and the flag and symbol tables perf defines; @ARGV;
# trace_begin() and trace_end().
use lib "../scripts/perl";
use strict;
use warnings;
use Perf::Trace::Context;

my %counts;

sub trace_begin { print "trace_begin argv=[@ARGV]\n"; }

sub trace_end {
    print "trace_end ", join(" ", map { "$_=$counts{$_}" } sort keys %counts), "\n";
}

sub chain_text {
    my ($chain) = @_;
    return join(" ", map {
        my $n = $_;
        sprintf("%x:%s:%s", $n->{ip},
                exists $n->{sym} ? "$n->{sym}{name}/$n->{sym}{binding}/"
                                   . sprintf("%x-%x", $n->{sym}{start}, $n->{sym}{end}) : "-",
                exists $n->{dso} ? $n->{dso} : "-")
    } @$chain);
}

sub trace_unhandled {
    my ($name, $context, $cpu, $secs, $nsecs, $pid, $comm, $chain, @fields) = @_;
    $counts{$name}++;
    printf("%s cpu=%u %u.%09u pid=%d comm=%s pc=%d flags=%d lock=%d fields=[%s] chain=[%s]\n",
           $name, $cpu, $secs, $nsecs, $pid, $comm, common_pc($context),
           common_flags($context), common_lock_depth($context),
           join("|", map { defined $_ ? $_ : "undef" } @fields), chain_text($chain));
}

sub sched::sched_switch {
    my ($name, $context, $cpu, $secs, $nsecs, $pid, $comm, $chain, @fields) = @_;
    $counts{"handler $name"}++;
    print "switch $comm $pid -> ", join(",", @fields), "\n";
}

sub define_flag_field { print "define_flag_field @_\n"; }
# A number's atom in the print format's expressions (perf calls this for every atom) depends
# on the parser: Debian's libtraceevent 1.7 folds constant expressions that perf 6.1's own copy
# keeps, so those calls are left out (as tests/golden/scripts/flags.py does).
sub define_flag_value { print "define_flag_value @_\n" unless $_[3] =~ /^[0-9]/; }
sub define_symbolic_field { print "define_symbolic_field @_\n"; }
sub define_symbolic_value { print "define_symbolic_value @_\n"; }

# struct perf_sample's fields up to no_hw_idx, then the register, stack, read and aux parts
# at their x86-64 offsets (perf 6.1 util/event.h); its pointers are perf's own and left out.
sub sample_text {
    my ($sample) = @_;
    my @head = unpack("Q L L Q Q Q Q Q Q Q Q Q L L Q Q Q Q Q L L L S C x S S S C", $sample);
    my @regs = (unpack("Q Q", substr($sample, 200, 16)), unpack("Q Q", substr($sample, 744, 16)));
    my ($stack_offset) = unpack("S", substr($sample, 1288, 2));
    my ($stack_size) = unpack("Q", substr($sample, 1296, 8));
    my @read = unpack("Q Q Q", substr($sample, 1312, 24));
    my ($aux) = unpack("Q", substr($sample, 1352, 8));
    return sprintf("size=%d head=[%s] regs=[%s] stack=%d/%d read=[%s] aux=%d", length($sample),
                   join(",", @head), join(",", @regs), $stack_offset, $stack_size,
                   join(",", @read), $aux);
}

sub process_event {
    my ($event, $attr, $sample, $raw) = @_;
    my ($type, $misc, $size) = unpack("L S S", $event);
    my @attr = unpack("L L Q Q Q Q Q", $attr);
    $counts{"process_event"}++;
    printf("event type=%d misc=%d size=%d len=%d attr=[%s] attrlen=%d %s raw=%s\n", $type,
           $misc, $size, length($event), join(",", @attr), length($attr), sample_text($sample),
           unpack("H*", $raw));
}
