# The Docker path of the campaigns (docker/): the node image, built from a debootstrap tree with
# `docker import` (nothing can be pulled), and campaigns on containers. See docker/README.md.
.PHONY: docker-image campaign-docker

docker-image: ## build the campaign node image zabkit-node:latest (debootstrap + docker import + classic docker build)
	@$(ENSURE) java lein docker debootstrap
	@cd $(ROOT)/jepsen && lein deps >/dev/null
	@$(ROOT)/docker/dockerd.sh start
	$(ROOT)/docker/build-image.sh

campaign-docker: ## short campaign on Docker containers, both systems (3 nodes, kill and partition, 20 s each); starts and stops dockerd
	@$(ENSURE) java lein docker debootstrap iptables
	@cd $(ROOT)/jepsen && lein deps >/dev/null
	$(ROOT)/docker/campaign.sh test-all --systems zookeeper,zabkit --workloads register --nemeses kill,partition \
	  --nodes 3 --time-limit 20 --nemesis-interval 4 --rate 40 --concurrency 5 --strict

TEST_TARGETS += campaign-docker
