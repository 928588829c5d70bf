#!/bin/sh
# A ZooKeeper 3.9 server configured from the environment (docker-compose.yml):
#   ZOO_MY_ID=1  ZOO_SERVERS="zk1 zk2 zk3"  [ZOO_TICK_TIME=2000]
set -eu
: "${ZOO_MY_ID:?set ZOO_MY_ID}" "${ZOO_SERVERS:?set ZOO_SERVERS}"
mkdir -p /data
echo "$ZOO_MY_ID" > /data/myid
{
  echo "tickTime=${ZOO_TICK_TIME:-2000}"
  echo "initLimit=10"
  echo "syncLimit=5"
  echo "dataDir=/data"
  echo "clientPort=2181"
  echo "4lw.commands.whitelist=srvr,ruok,mntr"
  echo "admin.enableServer=false"
  i=1
  for s in $ZOO_SERVERS; do echo "server.$i=$s:2888:3888"; i=$((i+1)); done
} > /conf/zoo.cfg
exec java -cp '/opt/zookeeper/lib/*' org.apache.zookeeper.server.quorum.QuorumPeerMain /conf/zoo.cfg
