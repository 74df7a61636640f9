// flitsim RTL harness configuration: 4x4 mesh, otherwise the values of the RTL's own
// 3x3-mesh testbench (one message class, 4 VCs, 64-flit buffer split statically,
// elig_mask FULL, speculation REQ, separable input-first allocators with
// round-robin arbiters, no explicit pipeline register, phased DOR ascending).
parameter num_routers_per_dim = 4;
parameter num_dimensions = 2;
parameter connectivity = `CONNECTIVITY_LINE;
parameter buffer_size = 64;
parameter num_vcs_per_class = 4;
parameter elig_mask = `ELIG_MASK_FULL;
parameter vc_alloc_type = `VC_ALLOC_TYPE_SEP_IF;
parameter vc_alloc_arbiter_type = `ARBITER_TYPE_ROUND_ROBIN_BINARY;
parameter sw_alloc_type = `SW_ALLOC_TYPE_SEP_IF;
parameter sw_alloc_arbiter_type = `ARBITER_TYPE_ROUND_ROBIN_BINARY;
parameter sw_alloc_spec_type = `SW_ALLOC_SPEC_TYPE_REQ;
parameter explicit_pipeline_register = 0;
