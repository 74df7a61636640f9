// flitsim RTL harness: a k-ary 2-mesh of the Stanford open-source VC router
// (vcr_top), driven by a packet list and logging every flit and credit on every
// channel, cycle by cycle. The router source is not part of flitsim: point
// scripts/rtl-crosscheck.sh at a copy of it. Configuration: config.vh (rtl/configs/).
//
// Plusargs: +packets=FILE (lines "cycle source destination length vc"),
// +log=FILE, +max_cycles=N.
//
// Log records, one per line, "CYCLE F NODE PORT VC KIND SRC:SEQ.INDEX" for a flit and
// "CYCLE C NODE PORT VC" for a credit. NODE rN is router N (PORT: its output port for
// flits, its input port for credits); tN is terminal N (its injection channel for
// flits, its ejection channel for credits; PORT 0). CYCLE is the cycle in which the
// sender decided to send: the flit or credit is on the wire in the next cycle.
`default_nettype none

module rtl_tb ();

`include "c_functions.v"
`include "c_constants.v"
`include "rtr_constants.v"
`include "vcr_constants.v"
`include "config.vh"

   localparam num_message_classes = 1;
   localparam num_resource_classes = 1;
   localparam num_vcs = num_vcs_per_class;
   localparam vc_idx_width = clogb(num_vcs);
   localparam num_routers = num_routers_per_dim * num_routers_per_dim;
   localparam dim_addr_width = clogb(num_routers_per_dim);
   localparam router_addr_width = num_dimensions * dim_addr_width;
   localparam num_ports = 2 * num_dimensions + 1;
   localparam port_idx_width = clogb(num_ports);
   localparam flit_data_width = 64;
   localparam flow_ctrl_width = 1 + vc_idx_width;
   localparam flit_ctrl_width = 1 + vc_idx_width + 1 + 1;
   localparam channel_width = 1 + flit_ctrl_width + flit_data_width;
   localparam max_packets = 65536;

   reg clk;
   reg reset;
   integer cyc;

   // The packet list, in file order; pk_seq is the packet's number at its source.
   reg [31:0] pk_cycle [0:max_packets-1];
   reg [15:0] pk_src [0:max_packets-1];
   reg [15:0] pk_dst [0:max_packets-1];
   reg [7:0]  pk_len [0:max_packets-1];
   reg [7:0]  pk_vc [0:max_packets-1];
   reg [23:0] pk_seq [0:max_packets-1];
   integer    num_packets;
   integer    max_cycles;
   integer    log_fd;

   task load_packets;
      reg [1023:0] path;
      integer fd, n, c, s, d, l, v, i;
      integer seq_of [0:num_routers-1];
      begin
	 if(!$value$plusargs("packets=%s", path))
	   begin
	      $display("rtl_tb: error: +packets=FILE missing");
	      $finish;
	   end
	 fd = $fopen(path, "r");
	 if(fd == 0)
	   begin
	      $display("rtl_tb: error: cannot open %0s", path);
	      $finish;
	   end
	 for(i = 0; i < num_routers; i = i + 1)
	   seq_of[i] = 0;
	 num_packets = 0;
	 n = $fscanf(fd, "%d %d %d %d %d\n", c, s, d, l, v);
	 while(n == 5)
	   begin
	      if(num_packets >= max_packets || s >= num_routers ||
		 d >= num_routers || s == d || l < 1 || l > 255 || v >= num_vcs)
		begin
		   $display("rtl_tb: error: packet %0d out of range", num_packets);
		   $finish;
		end
	      pk_cycle[num_packets] = c;
	      pk_src[num_packets] = s;
	      pk_dst[num_packets] = d;
	      pk_len[num_packets] = l;
	      pk_vc[num_packets] = v;
	      pk_seq[num_packets] = seq_of[s];
	      seq_of[s] = seq_of[s] + 1;
	      num_packets = num_packets + 1;
	      n = $fscanf(fd, "%d %d %d %d %d\n", c, s, d, l, v);
	   end
	 $fclose(fd);
      end
   endtask

   initial
     begin
	load_packets;
	if(!$value$plusargs("max_cycles=%d", max_cycles))
	  max_cycles = 100000;
	begin : open_log
	   reg [1023:0] path;
	   if(!$value$plusargs("log=%s", path))
	     begin
		$display("rtl_tb: error: +log=FILE missing");
		$finish;
	     end
	   log_fd = $fopen(path, "w");
	end
	clk = 1'b0;
	reset = 1'b1;
	cyc = 0;
	#10 reset = 1'b0;
	#1;
	forever
	  #5 clk = ~clk;
     end

   always @(posedge clk)
     if(!reset)
       cyc <= cyc + 1;

   // channels, indexed by router * num_ports + port
   wire [0:channel_width-1]   ch_out [0:num_routers*num_ports-1];
   wire [0:channel_width-1]   ch_in [0:num_routers*num_ports-1];
   wire [0:flow_ctrl_width-1] fc_out [0:num_routers*num_ports-1];
   wire [0:flow_ctrl_width-1] fc_in [0:num_routers*num_ports-1];

   integer tails_ejected;

   genvar r, p;
   generate
      for(r = 0; r < num_routers; r = r + 1)
	begin : rtrs
	   localparam x = r % num_routers_per_dim;
	   localparam y = r / num_routers_per_dim;
	   wire [0:router_addr_width-1] address;
	   assign address[0:dim_addr_width-1] = x;
	   assign address[dim_addr_width:router_addr_width-1] = y;
	   wire [0:num_ports*channel_width-1] cin, cout;
	   wire [0:num_ports*flow_ctrl_width-1] fin, fout;
	   for(p = 0; p < num_ports; p = p + 1)
	     begin : ports
		assign cin[p*channel_width +: channel_width] = ch_in[r*num_ports+p];
		assign ch_out[r*num_ports+p] = cout[p*channel_width +: channel_width];
		assign fin[p*flow_ctrl_width +: flow_ctrl_width] = fc_in[r*num_ports+p];
		assign fc_out[r*num_ports+p] = fout[p*flow_ctrl_width +: flow_ctrl_width];
		if(p < 2 * num_dimensions)
		  begin : link
		     // port 2d faces the -1 neighbour in dimension d, 2d+1 the +1 one
		     localparam c = (p / 2 == 0) ? x : y;
		     localparam step = (p / 2 == 0) ? 1 : num_routers_per_dim;
		     localparam has = (p % 2 == 0) ? (c > 0) : (c < num_routers_per_dim - 1);
		     localparam nbr = (p % 2 == 0) ? r - step : r + step;
		     if(has)
		       begin
			  assign ch_in[r*num_ports+p] = ch_out[nbr*num_ports+(p^1)];
			  assign fc_in[r*num_ports+p] = fc_out[nbr*num_ports+(p^1)];
		       end
		     else
		       begin
			  assign ch_in[r*num_ports+p] = {channel_width{1'b0}};
			  assign fc_in[r*num_ports+p] = {flow_ctrl_width{1'b0}};
		       end
		  end
	     end
	   vcr_top
	     #(.buffer_size(buffer_size),
	       .num_message_classes(num_message_classes),
	       .num_resource_classes(num_resource_classes),
	       .num_vcs_per_class(num_vcs_per_class),
	       .num_routers_per_dim(num_routers_per_dim),
	       .num_dimensions(num_dimensions),
	       .num_nodes_per_router(1),
	       .connectivity(connectivity),
	       .packet_format(`PACKET_FORMAT_HEAD_TAIL),
	       .flow_ctrl_type(`FLOW_CTRL_TYPE_CREDIT),
	       .flow_ctrl_bypass(0),
	       .max_payload_length(4),
	       .min_payload_length(0),
	       .enable_link_pm(1),
	       .flit_data_width(flit_data_width),
	       .error_capture_mode(`ERROR_CAPTURE_MODE_NO_HOLD),
	       .restrict_turns(1),
	       .routing_type(`ROUTING_TYPE_PHASED_DOR),
	       .dim_order(`DIM_ORDER_ASCENDING),
	       .fb_regfile_type(`REGFILE_TYPE_FF_2D),
	       .fb_mgmt_type(`FB_MGMT_TYPE_STATIC),
	       .fb_fast_peek(1),
	       .disable_static_reservations(0),
	       .explicit_pipeline_register(explicit_pipeline_register),
	       .gate_buffer_write(0),
	       .elig_mask(elig_mask),
	       .vc_alloc_type(vc_alloc_type),
	       .vc_alloc_arbiter_type(vc_alloc_arbiter_type),
	       .sw_alloc_type(sw_alloc_type),
	       .sw_alloc_arbiter_type(sw_alloc_arbiter_type),
	       .sw_alloc_spec_type(sw_alloc_spec_type),
	       .crossbar_type(`CROSSBAR_TYPE_TRISTATE),
	       .reset_type(`RESET_TYPE_ASYNC))
	   rtr
	     (.clk(clk),
	      .reset(reset),
	      .router_address(address),
	      .channel_in_ip(cin),
	      .flow_ctrl_out_ip(fout),
	      .channel_out_op(cout),
	      .flow_ctrl_in_op(fin),
	      .error());
	   trace_source
	     #(.terminal(r),
	       .num_routers_per_dim(num_routers_per_dim),
	       .num_vcs(num_vcs),
	       .buffer_size(buffer_size),
	       .elig_mask(elig_mask))
	   src
	     (.clk(clk),
	      .reset(reset),
	      .channel(ch_in[r*num_ports+num_ports-1]),
	      .flow_ctrl(fc_out[r*num_ports+num_ports-1]));
	   trace_sink
	     #(.num_vcs(num_vcs))
	   snk
	     (.clk(clk),
	      .reset(reset),
	      .channel(ch_out[r*num_ports+num_ports-1]),
	      .flow_ctrl(fc_in[r*num_ports+num_ports-1]));
	end
   endgenerate

   // The logger: in the middle of each cycle, every wire registered at its start.
   task log_flit(input [8*4-1:0] node, input integer id, input integer port,
		 input [0:channel_width-1] ch);
      reg [0:vc_idx_width-1] vc;
      reg head, tail;
      begin
	 vc = ch[2:2+vc_idx_width-1];
	 head = ch[2+vc_idx_width];
	 tail = ch[3+vc_idx_width];
	 $fwrite(log_fd, "%0d F %0s%0d %0d %0d %0s %0d:%0d.%0d\n", cyc - 1, node, id, port,
		 vc, head ? (tail ? "head-tail" : "head") : (tail ? "tail" : "body"),
		 ch[channel_width-48 +: 16], ch[channel_width-32 +: 24],
		 ch[channel_width-8 +: 8]);
      end
   endtask

   task log_credit(input [8*4-1:0] node, input integer id, input integer port,
		   input [0:flow_ctrl_width-1] fc);
      $fwrite(log_fd, "%0d C %0s%0d %0d %0d\n", cyc - 1, node, id, port,
	      fc[1:flow_ctrl_width-1]);
   endtask

   integer i, j;
   initial
     tails_ejected = 0;
   always @(negedge clk)
     if(!reset && cyc > 0)
       begin
	  for(i = 0; i < num_routers; i = i + 1)
	    for(j = 0; j < num_ports; j = j + 1)
	      if(ch_out[i*num_ports+j][1])
		begin
		   log_flit("r", i, j, ch_out[i*num_ports+j]);
		   if(j == num_ports - 1 && ch_out[i*num_ports+j][3+vc_idx_width])
		     tails_ejected = tails_ejected + 1;
		end
	  for(i = 0; i < num_routers; i = i + 1)
	    if(ch_in[i*num_ports+num_ports-1][1])
	      log_flit("t", i, 0, ch_in[i*num_ports+num_ports-1]);
	  for(i = 0; i < num_routers; i = i + 1)
	    for(j = 0; j < num_ports; j = j + 1)
	      if(fc_out[i*num_ports+j][0])
		log_credit("r", i, j, fc_out[i*num_ports+j]);
	  for(i = 0; i < num_routers; i = i + 1)
	    if(fc_in[i*num_ports+num_ports-1][0])
	      log_credit("t", i, 0, fc_in[i*num_ports+num_ports-1]);
	  if(cyc >= max_cycles)
	    begin
	       $display("rtl_tb: error: %0d of %0d packets delivered after %0d cycles",
			tails_ejected, num_packets, cyc);
	       $fclose(log_fd);
	       $finish;
	    end
	  if(tails_ejected == num_packets && quiet_cycles >= 4)
	    begin
	       $fclose(log_fd);
	       $finish;
	    end
       end

   // cycles since the last credit on any channel (the run ends when all are home)
   integer quiet_cycles;
   integer k;
   reg any_credit;
   always @(negedge clk)
     begin
	any_credit = 1'b0;
	for(k = 0; k < num_routers * num_ports; k = k + 1)
	  any_credit = any_credit | fc_out[k][0] | fc_in[k][0];
	if(reset || any_credit || tails_ejected != num_packets)
	  quiet_cycles = 0;
	else
	  quiet_cycles = quiet_cycles + 1;
     end

endmodule
