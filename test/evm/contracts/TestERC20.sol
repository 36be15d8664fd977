// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A plain ERC-20 for tests: anyone can mint, and `approve` can be switched off.
contract TestERC20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    /// When true, `approve` reverts with "TestERC20: approve disabled".
    bool public approveReverts;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    /// Open to anyone: tests mint what they need.
    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function setApproveReverts(bool value) external {
        approveReverts = value;
    }

    function approve(address spender, uint256 amount) public virtual returns (bool) {
        require(!approveReverts, "TestERC20: approve disabled");
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// An allowance of type(uint256).max is never decreased (as in OpenZeppelin's ERC20).
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "TestERC20: insufficient allowance");
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        require(to != address(0), "TestERC20: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= amount, "TestERC20: insufficient balance");
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
