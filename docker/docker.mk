# The Docker path of the campaigns (docker/): the node image, built from a debootstrap tree with
# `docker import` (nothing can be pulled), and campaigns on containers. See docker/README.md.
.PHONY: docker-image campaign-docker

docker-image: ## build the campaign node image zabkit-node:latest (debootstrap + docker import + classic docker build)
	@$(ENSURE) java lein docker debootstrap
	@cd $(ROOT)/jepsen && lein deps >/dev/null
	@$(ROOT)/docker/dockerd.sh start
	$(ROOT)/docker/build-image.sh

campaign-docker: ## short campaign on Docker containers (3 nodes, kill and partition); starts and stops dockerd
	@$(ENSURE) java lein docker debootstrap iptables
	@cd $(ROOT)/jepsen && lein deps >/dev/null
	$(ROOT)/docker/campaign.sh --system zookeeper --workload register --nemesis kill,partition --nodes 3 \
	  --time-limit 30 --rate 40 --concurrency 5

# Passed 4 of 4 runs on the development machine (73-111 s each with a built image; building the
# image first takes about 4 minutes on a fresh machine).
TEST_TARGETS += campaign-docker
