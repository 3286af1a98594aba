#!/bin/sh
# A single-node Slurm cluster on this machine (Debian's slurm-wlm and munge), for the Slurm tests and for
# trying the README's recipe. Idempotent: when slurmctld and slurmd answer already it only prints the state.
# Needs root. `scripts/slurm-cluster.sh stop` stops what it started.
set -eu

CONF_DIR=/etc/slurm
STATE=/var/spool/slurmctld
SPOOL=/var/spool/slurmd
LOGS=/var/log/slurm

if [ "${1:-start}" = stop ]; then
  for name in slurmd slurmctld; do
    pidfile=/run/$name.pid
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  exit 0
fi

cluster_up() {
  command -v sinfo >/dev/null 2>&1 && sinfo -h -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'
}

if cluster_up; then
  sinfo
  exit 0
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
# What slurmd sees, so that the node is not drained for a memory mismatch.
mem=$(awk '/MemTotal/ { print int($2 / 1024) - 256 }' /proc/meminfo)

mkdir -p "$CONF_DIR" "$STATE" "$SPOOL" "$LOGS" /run/munge /var/lib/munge /var/log/munge /etc/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge

conf="ClusterName=evalshard
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE
SlurmdSpoolDir=$SPOOL
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP"
printf '%s\n' "$conf" > "$CONF_DIR/slurm.conf"
rm -f "$CONF_DIR/cgroup.conf"

if ! pgrep -u munge -x munged >/dev/null 2>&1; then
  su -s /bin/sh munge -c '/usr/sbin/munged'
fi
if ! pgrep -x slurmctld >/dev/null 2>&1; then
  slurmctld
fi
if ! pgrep -x slurmd >/dev/null 2>&1; then
  slurmd
fi

# The node registers within seconds; a node left down by an earlier run is brought back.
i=0
until cluster_up; do
  i=$((i + 1))
  if [ "$i" -gt 60 ]; then
    echo "slurm-cluster: the node did not come up; see $LOGS/slurmctld.log and $LOGS/slurmd.log" >&2
    sinfo >&2 || true
    exit 1
  fi
  [ $((i % 5)) -eq 0 ] && scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 1
done
sinfo
